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
