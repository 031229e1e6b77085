// The production process's entry. Built by `npm run build` into build/server/server.js
// together with the Remix server build, so both share one copy of every module.
import { fileURLToPath } from "node:url";
import * as build from "virtual:remix/server-build";
import { runServer } from "./server";

runServer({ kind: "build", build, clientDirectory: fileURLToPath(new URL("../client", import.meta.url)) });
