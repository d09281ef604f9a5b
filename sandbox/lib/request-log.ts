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
export const REQUEST_LOG_CAPACITY = 10_000;

const SECRET_PARAM = /^(api[_-]?key|key|token|access[_-]?token|authorization)$/i;

/**
 * Returns the query string with values of key-like parameters (and any value that is one of the
 * known keys) replaced by `[redacted]`: a key must never reach a log line (helper rules, spec 5).
 */
export function redactQuery(search: string, keys: ReadonlySet<string>): string {
  const params = new URLSearchParams(search);
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    out.append(name, SECRET_PARAM.test(name) || keys.has(value) ? "[redacted]" : value);
  }
  return out.toString();
}

/** Appends an entry, trimming the log to its capacity. */
export function appendLog(log: RequestLogEntry[], entry: RequestLogEntry): void {
  log.push(entry);
  if (log.length > REQUEST_LOG_CAPACITY) log.splice(0, log.length - REQUEST_LOG_CAPACITY);
}
