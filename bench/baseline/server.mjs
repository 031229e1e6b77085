// Serves the baseline build as `remix-serve` would: Express with compression, static
// assets, and the Remix request handler. PORT and HOST from the environment.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const build = await import(new URL("./build/server/index.js", import.meta.url).href);
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static(new URL("./build/client/assets", import.meta.url).pathname, { immutable: true, maxAge: "1y" }));
app.all("*", createRequestHandler({ build, mode: "production" }));
app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "127.0.0.1");
