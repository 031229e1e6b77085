// `npm run dev`: the same server, with Vite compiling the sources on demand. The
// server module is loaded through Vite as well, so it and the routes share one copy
// of every module, as in the build.
import { createServer } from "vite";

const vite = await createServer({ server: { middlewareMode: true } });
const { runServer } = (await vite.ssrLoadModule("/server.ts")) as typeof import("./server");
runServer({ kind: "vite", vite });
