import { readdirSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import type { ViteDevServer } from "vite";
import { accessLog } from "./app/server/access-log.server";
import { ConfigError, loadConfig } from "./app/server/config.server";
import { compressionOptions, securityMiddleware } from "./app/server/http.server";
import { invitationsAvailable } from "./app/server/outreach/stop-inviting.server";
import { servePublicPagesOnce } from "./app/server/page-cache.server";
import { requestGuards } from "./app/server/request-guards.server";
import { createServices, startServices, stopServices } from "./app/server/service-lifecycle.server";
import type { Services } from "./app/server/services.server";
import { DatabaseStartError } from "./app/server/store/postgres/driver.server";
import { httpStatusOf } from "./app/server/store/retry.server";

/** Where the app comes from: the production build, or Vite's dev server compiling the sources on demand. */
export type AppSource = { kind: "build"; build: ServerBuild; clientDirectory: string } | { kind: "vite"; vite: ViteDevServer };

/**
 * A stop cuts the connections still open after this long, and gives up on the store after
 * the second, so the process is gone inside the 10 s that `docker stop` and systemd wait
 * before killing it.
 */
const CUT_CONNECTIONS_AFTER_MS = 7_000;
const EXIT_ANYWAY_AFTER_MS = 9_000;

/** Starts the server and exits the process when start-up fails; the entry files call only this. */
export function runServer(source: AppSource): void {
  startServer(source).catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}

async function startServer(source: AppSource): Promise<void> {
  const config = loadConfig();
  const services = createServices(config);
  // Pages read the replica, so nothing is served before it holds the workbook.
  await services.store.refresh().catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    // The database's own sentence, as the operator guide quotes it: the workbook's driver is not what failed.
    if (error instanceof DatabaseStartError) throw new ConfigError(`${reason}.`);
    // The sharing hint only where sharing can be the cause: a quota or network error is not fixed by sharing.
    const status = httpStatusOf(error);
    const hint =
      services.store.driver === "sqlite"
        ? ` Check that ${config.dataDir} is writable.`
        : status === 403 || status === 404
          ? " Check GOOGLE_SHEETS_ID, and that the spreadsheet is shared with the service account's e-mail as Editor."
          : "";
    throw new ConfigError(`Could not read the workbook from the ${services.store.driver} store: ${reason}.${hint}`);
  });
  startServices(services);

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.use(compression(compressionOptions));
  app.use(securityMiddleware(config.isProduction));
  app.use(requestGuards);

  if (source.kind === "vite") {
    app.use(source.vite.middlewares);
  } else {
    app.use("/assets", express.static(`${source.clientDirectory}/assets`, { immutable: true, maxAge: "1y" }));
    app.use(serveBuildFiles(source.clientDirectory));
  }
  if (config.logRequests) app.use(accessLog(config));
  // In development the sources change under the cache; only the build's pages are kept.
  if (source.kind === "build") app.use(servePublicPagesOnce(services.pageCache, services));

  const build =
    source.kind === "vite" ? () => source.vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild> : source.build;

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
    const serving = source.kind === "vite" ? "sources through Vite" : "built app";
    console.log(
      `Listening on http://localhost:${port} (${config.env}, ${serving}, mail: ${services.notifier.driver}, push: ${services.push.offBecause ? `off (${services.push.offBecause})` : "on"}, store: ${services.store.driver}${services.database ? ", high-volume tabs in PostgreSQL" : ""}${invitationsAvailable(config) ? "" : ", invitations: off until POSTAL_ADDRESS is set"})`,
    );
  });
  stopOnSignals(server, services);
}

/**
 * The build's files outside /assets (the service worker, the icons, the offline page), looked
 * up only under the names the build holds at its top level: for every other request, each page
 * among them, express.static would first ask the disk for a file that is not there.
 */
function serveBuildFiles(clientDirectory: string): express.RequestHandler {
  const topLevelNames = new Set(readdirSync(clientDirectory));
  const serve = express.static(clientDirectory, { maxAge: "1h", index: false, setHeaders: revalidateServiceWorker });
  return (req, res, next) => (topLevelNames.has(req.path.split("/")[1] ?? "") ? serve(req, res, next) : next());
}

/**
 * The browser asks again for /sw.js on every navigation and installs it when it changed:
 * never kept stale by a cache in between, so a deploy's worker reaches the next page view
 * (docs/decisions/0065). Set before express.static's own Cache-Control, which then stays out.
 */
function revalidateServiceWorker(res: express.Response, filePath: string): void {
  if (path.basename(filePath) === "sw.js") res.setHeader("Cache-Control", "no-cache");
}

/**
 * SIGTERM (docker stop, systemd, process managers) and SIGINT (Ctrl-C) stop the server
 * without losing work: no new connections, event streams ended (browsers reconnect
 * elsewhere), requests in flight answered, then every background job stopped and the
 * store closed (`stopServices`). Every store write is awaited before its request is
 * answered, so a finished request is a stored write.
 */
function stopOnSignals(server: Server, services: Services): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing requests in flight, then stopping.`);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Open event streams are requests that never finish by themselves: end them first.
    services.messageEvents.close();
    // Keep-alive connections stay open after their last response; close each once idle.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => {
      console.error(`Requests still open after ${CUT_CONNECTIONS_AFTER_MS / 1000} s: closing them.`);
      server.closeAllConnections();
    }, CUT_CONNECTIONS_AFTER_MS).unref();
    setTimeout(() => {
      console.error("The services did not stop in time: exiting without waiting for them.");
      process.exit(1);
    }, EXIT_ANYWAY_AFTER_MS).unref();
    closed
      .then(() => stopServices(services))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error("Stopping the services failed:", error);
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
