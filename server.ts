import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";
import { ConfigError, loadConfig } from "./app/server/config.server";
import { assignNonce, compressionOptions, flushOnlyEventStreams, sameOriginPosts, securityHeaders } from "./app/server/http.server";
import { createServices } from "./app/server/services.server";

async function main() {
  const config = loadConfig();
  const services = createServices(config);
  // Pages read the replica, so nothing is served before it holds the workbook.
  await services.store.refresh().catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    const hint =
      services.store.driver === "sheets"
        ? " Check GOOGLE_SHEETS_ID, and that the spreadsheet is shared with the service account's e-mail as Editor."
        : ` Check that ${config.dataDir} is writable.`;
    throw new ConfigError(`Could not read the workbook from the ${services.store.driver} store: ${reason}.${hint}`);
  });
  services.store.start();

  const viteDevServer = config.isProduction || process.env.SERVE_BUILD === "1"
    ? undefined
    : await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }));

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.use(compression(compressionOptions));
  app.use(flushOnlyEventStreams);
  app.use(assignNonce);
  app.use(securityHeaders(config.isProduction));
  app.use(sameOriginPosts);

  if (viteDevServer) {
    app.use(viteDevServer.middlewares);
  } else {
    app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
    app.use(express.static("build/client", { maxAge: "1h", index: false }));
  }
  if (config.logRequests) app.use(morgan(config.isProduction ? "combined" : "dev"));

  const build = viteDevServer
    ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
    : ((await import(new URL("./build/server/index.js", import.meta.url).href)) as ServerBuild);

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: config.env,
      getLoadContext: (req, res): AppLoadContext => ({ services, nonce: res.locals.nonce as string, clientIp: req.ip }),
    }),
  );

  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    console.log(
      `Listening on http://localhost:${port} (${config.env}, mail: ${services.mailer.driver}, store: ${services.store.driver})`,
    );
  });
  const shutdown = () =>
    server.close(() => {
      services.store.stop().finally(() => process.exit(0));
    });
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
