/**
 * What each brotli setting costs on the app's own pages: CPU time to compress and the
 * bytes sent, beside gzip. The server's settings (app/server/http.server.ts) were
 * chosen from this table.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export type CompressionRow = { setting: string; cpuMsPerPage: number; kbPerPage: number };

const SETTINGS: { setting: string; compress: (body: Buffer) => Buffer }[] = [
  { setting: "gzip level 6 (compression's default)", compress: (body) => gzipSync(body) },
  ...[
    [4, 22],
    [4, 18],
    [4, 16],
    [5, 18],
    [3, 18],
    [1, 18],
  ].map(([quality, window]) => ({
    setting: `brotli quality ${quality}, window ${(2 ** window! / 1024).toFixed(0)} KB${quality === 4 && window === 22 ? " (compression's default)" : ""}`,
    compress: (body: Buffer) =>
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: quality!, [constants.BROTLI_PARAM_LGWIN]: window! },
      }),
  })),
];

/** Each setting over the pages, repeated until it has run for a while: mean CPU ms and KB per page. */
export function compareCompression(pages: readonly string[]): CompressionRow[] {
  const bodies = pages.map((page) => Buffer.from(page));
  return SETTINGS.map(({ setting, compress }) => {
    let bytes = 0;
    let runs = 0;
    const started = process.cpuUsage();
    const until = performance.now() + 1_000;
    while (performance.now() < until || runs === 0) {
      for (const body of bodies) bytes += compress(body).length;
      runs += 1;
    }
    const used = process.cpuUsage(started);
    const count = runs * bodies.length;
    return { setting, cpuMsPerPage: (used.user + used.system) / 1000 / count, kbPerPage: bytes / 1024 / count };
  });
}
