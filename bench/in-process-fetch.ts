// A fetch over the in-process sandbox app (no socket) that counts requests and response bytes.

/** The part of a Hono app this adapter needs: `app.request(url, init)`. */
export interface RequestableApp {
  request(input: string, init?: RequestInit): Response | Promise<Response>;
}

/** What went over the (virtual) wire. */
interface WireCounters {
  /** Requests handed to the app, including failed ones. */
  requests: number;
  /** Response body bytes received (UTF-8), headers excluded. */
  bytes: number;
  /** Every requested URL (path and query), in order: for secret-hygiene checks and debugging. */
  urls: string[];
  /** performance.now() of the first request since it was last set to undefined. */
  firstRequestAt: number | undefined;
}

export interface InProcessFetch {
  fetch: typeof fetch;
  counters: WireCounters;
  /** Routes later requests to another app (e.g. from a healthy sandbox to a failing one). */
  setApp(app: RequestableApp): void;
}

/**
 * Wraps `app.request` so it behaves like the platform fetch where the client can tell: an abort
 * rejects with the signal's reason even while the app is still "sleeping" (injected latency), and a
 * connection dropped by the sandbox's fault injector rejects with a TypeError, as undici does.
 * @example const wire = inProcessFetch(createApp({}).app); createClient({ fetch: wire.fetch })
 */
export function inProcessFetch(
  initial: RequestableApp,
  options: { keepUrls?: boolean } = {},
): InProcessFetch {
  let app = initial;
  const counters: WireCounters = { requests: 0, bytes: 0, urls: [], firstRequestAt: undefined };
  const keepUrls = options.keepUrls ?? true;

  const adapted = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const signal = init?.signal ?? undefined;
    if (signal?.aborted === true) throw abortReason(signal);
    counters.requests += 1;
    counters.firstRequestAt ??= performance.now();
    if (keepUrls) counters.urls.push(url);
    const answer = Promise.resolve()
      .then(() => app.request(url, init))
      .then(async (response) => {
        // Read the body here so bytes are counted once, whatever the client does with it.
        const body = await response.arrayBuffer();
        counters.bytes += body.byteLength;
        return new Response(response.status === 204 ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      })
      .catch((error: unknown) => {
        if (error instanceof Error) throw error;
        // sandbox/lib/faults.ts throws a non-Error for a dropped connection.
        throw new TypeError("fetch failed", { cause: error });
      });
    if (signal === undefined) return answer;
    return await new Promise<Response>((resolve, reject) => {
      const onAbort = (): void => reject(abortReason(signal));
      signal.addEventListener("abort", onAbort, { once: true });
      answer.then(
        (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  };

  return {
    fetch: adapted as typeof fetch,
    counters,
    setApp(next) {
      app = next;
    },
  };
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException("This operation was aborted", "AbortError");
}
