// The in-process request log: what the sandbox answered, never the API key.

export interface RequestLogEntry {
  method: string;
  /** Path without query, e.g. `/v1/financials`. */
  path: string;
  /** Query string without `?`, with any key-like value redacted. */
  query: string;
  /** HTTP status; 0 when the connection was dropped by the fault injector. */
  status: number;
  /** ISO 8601 time (real-time clock) the request arrived. */
  at: string;
}

/** Keeps memory bounded in long-running servers: the oldest entries are dropped first. */
const REQUEST_LOG_CAPACITY = 10_000;
/** And in bytes (10,000 entries of 60 kB URLs would be 600 MB). @unit bytes (UTF-16 ≈ 2/char) */
export const REQUEST_LOG_MAX_BYTES = 4 * 1024 * 1024;
/** A path or query longer than this is kept cut, with its length, in the log. */
const MAX_LOGGED_TEXT = 2_048;

const logBytes = new WeakMap<RequestLogEntry[], number>();

function clip(text: string): string {
  return text.length > MAX_LOGGED_TEXT
    ? `${text.slice(0, MAX_LOGGED_TEXT)}…(${text.length} characters)`
    : text;
}

function sizeOf(entry: RequestLogEntry): number {
  return 2 * (entry.method.length + entry.path.length + entry.query.length + entry.at.length) + 64;
}

const SECRET_PARAM = /^(api[_-]?key|key|token|access[_-]?token|authorization)$/i;

/**
 * Returns the query string with values of key-like parameters (and any value that is one of the
 * known keys) replaced by `[redacted]`: a key must never reach a log line (helper rules,
 * openapi.json bearerAuth).
 */
export function redactQuery(search: string, keys: ReadonlySet<string>): string {
  const params = new URLSearchParams(search);
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    out.append(name, SECRET_PARAM.test(name) || keys.has(value) ? "[redacted]" : value);
  }
  return out.toString();
}

/** Appends an entry (long paths and queries cut), trimming the log to its capacity and byte bound. */
export function appendLog(log: RequestLogEntry[], entry: RequestLogEntry): void {
  entry.path = clip(entry.path);
  entry.query = clip(entry.query);
  // The log may have been emptied from outside (reset): the running total starts again.
  let bytes = log.length === 0 ? 0 : (logBytes.get(log) ?? 0);
  log.push(entry);
  bytes += sizeOf(entry);
  let drop = Math.max(0, log.length - REQUEST_LOG_CAPACITY);
  for (let i = 0; i < drop; i += 1) bytes -= sizeOf(log[i] as RequestLogEntry);
  while (bytes > REQUEST_LOG_MAX_BYTES && drop < log.length - 1) {
    bytes -= sizeOf(log[drop] as RequestLogEntry);
    drop += 1;
  }
  if (drop > 0) log.splice(0, drop);
  logBytes.set(log, bytes);
}

/** The log's size as counted for REQUEST_LOG_MAX_BYTES. @unit bytes */
export function requestLogBytes(log: RequestLogEntry[]): number {
  return log.reduce((sum, e) => sum + sizeOf(e), 0);
}
