// The bench's Node processes stand node:zlib in for the browser's native compression streams.

import { gunzipSync, gzipSync } from "node:zlib";
import { useNativeCompression } from "../src/client";

/**
 * In the add-in's runtime (a browser engine) CompressionStream and DecompressionStream are native
 * code. In Node they are web-streams adapters over node:zlib, run in script chunk by chunk: a Model
 * 500 reopen spent more time in that plumbing (and its garbage) than in the cells. As the storage
 * stand-in models IndexedDB, node:zlib called directly models the browser's streams: the same gzip
 * bytes, the work native. BENCH_NODE_STREAMS=1 keeps Node's streams (the figure the Node adapters
 * give, for comparison).
 */
export function modelBrowserCompression(): void {
  if (process.env["BENCH_NODE_STREAMS"] === "1") return;
  useNativeCompression({ gzip: (bytes) => gzipSync(bytes), gunzip: (bytes) => gunzipSync(bytes) });
}
