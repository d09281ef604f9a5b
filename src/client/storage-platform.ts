// What the platform offers the persistent cache tier (IndexedDB, gzip streams): read at start-up, before the tier's code is loaded.

/**
 * Whether this platform can gzip and gunzip: CompressionStream and DecompressionStream (Compression
 * Streams standard; Chromium/WebView2 80+, Safari/WKWebView 16.4+, Node 18+). Where it cannot, the
 * add-in keeps answers in memory only (functions/addin-cache.ts), never in another stored form.
 */
export function hasCompression(): boolean {
  return (
    typeof CompressionStream === "function" &&
    typeof DecompressionStream === "function" &&
    typeof Blob === "function" &&
    typeof Response === "function"
  );
}

/**
 * How long the persistent tier may take to open IndexedDB and read its index before the add-in
 * keeps answers in memory only for the session (persistent-store.ts `openTimeoutMs`): WebKit, which
 * Excel on Mac runs add-ins in, has left `indexedDB.open` without success or error for good, and
 * every cell not in memory waits for the tier. A healthy open of the cache takes well under a
 * second; the bound only ends a wait that would never end. @unit ms
 */
export const STORAGE_OPEN_TIMEOUT_MS = 10_000;

/** The platform's IndexedDB, or undefined where there is none (Node, some hosts). */
export function platformIndexedDb(): IDBFactory | undefined {
  try {
    const idb = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    return idb ?? undefined;
  } catch {
    // Some sandboxed frames throw on access.
    return undefined;
  }
}
