// Queue API of the client: what is waiting for the pacer, in flight, the estimated wait, cancelling.

import { AbortError } from "../../src/client/errors";
import { createClient } from "../../src/client/client";
import { type QueueStatus } from "../../src/client/pacer";
import { TEST_KEY, flush, recordingFetch, reply } from "./helpers";

const peersBody = { security_code: "x", peers: [], reason: null };

describe("client queue API", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("queueStatus: 3 calls at 1/min -> 1 in flight, 2 waiting, the last one about 2 windows away", async () => {
    let answer: (() => void) | undefined;
    const rec = recordingFetch(
      () => new Promise((resolve) => (answer = () => resolve(reply(200, peersBody)))),
    );
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 1 });
    expect(client.queueStatus()).toEqual({ waiting: 0, inFlight: 0, estimatedWaitMs: 0 });
    const calls = ["1301", "1302", "1303"].map((c) =>
      client.peers({ security_code: c }).catch((e: unknown) => e),
    );
    await jest.advanceTimersByTimeAsync(0);
    await flush();
    expect(rec.requests).toHaveLength(1);
    const s = client.queueStatus();
    expect(s.waiting).toBe(2);
    expect(s.inFlight).toBe(1);
    // The first token returns after one window (61 s), the third call's after two.
    expect(s.estimatedWaitMs).toBe(122_000);
    expect(s.pausedUntil).toBeUndefined();
    answer?.();
    await jest.advanceTimersByTimeAsync(0);
    expect(client.queueStatus().inFlight).toBe(0);
    client.cancelQueued();
    await Promise.all(calls);
  });

  test("cancelQueued rejects every waiting request with AbortError, sends nothing more, returns the count", async () => {
    const rec = recordingFetch(() => reply(200, peersBody));
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 2 });
    const calls = ["1301", "1302", "1303", "1304", "1305"].map((c) =>
      client.peers({ security_code: c }).then(
        () => "ok",
        (e: unknown) => e,
      ),
    );
    await jest.advanceTimersByTimeAsync(0);
    await flush();
    expect(rec.requests).toHaveLength(2);
    expect(client.cancelQueued()).toBe(3);
    const results = await Promise.all(calls);
    expect(results.slice(0, 2)).toEqual(["ok", "ok"]);
    for (const r of results.slice(2)) expect(r).toBeInstanceOf(AbortError);
    await jest.advanceTimersByTimeAsync(200_000);
    expect(rec.requests).toHaveLength(2);
    expect(client.cancelQueued()).toBe(0);
  });

  test("withOptions copies share the queue: a listener on one sees requests of the other; unsubscribe stops it", async () => {
    const rec = recordingFetch(() => reply(200, peersBody));
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 1 });
    const copy = client.withOptions({ lang: "en" });
    const seen: QueueStatus[] = [];
    const unsubscribe = client.onQueueChange((s) => seen.push(s));
    const calls = ["1301", "1302"].map((c) =>
      copy.peers({ security_code: c }).catch((e: unknown) => e),
    );
    await jest.advanceTimersByTimeAsync(0);
    await flush();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toMatchObject({ waiting: 1, inFlight: 0 });
    expect(copy.queueStatus()).toEqual(client.queueStatus());
    unsubscribe();
    const before = seen.length;
    expect(copy.cancelQueued()).toBe(1);
    await Promise.all(calls);
    await flush();
    expect(seen).toHaveLength(before);
  });
});
