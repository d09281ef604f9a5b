// A cell read from an answer served marked stale says so even when it is an error: the morning after
// results, "no annual period 2026" is old news until the company is checked (functions/run.ts).

import * as TYPED from "../../functions/index";
import { createApp } from "../../sandbox/app";
import { MemoryCacheStore, createClient } from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { sandboxAnswer, sandboxClientOptions } from "./session-client";
import { cellError, invocation, resetSession } from "./harness";

const KAISHA = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

jest.setTimeout(60_000);
afterAll(resetSession);

const jst = (local: string) => Date.parse(`${local}:00+09:00`);

/** A runtime at `t` over `store`, its background's daily budget `budget`, set as the session's. */
function runtime(t: number, store: MemoryCacheStore, budget?: number): void {
  const sandbox = createApp({ ratePerMinute: 0, now: new Date(t).toISOString() });
  const client = createClient({
    ...sandboxClientOptions((url, init) => sandboxAnswer(sandbox, new URL(url), init)),
    cacheStore: store,
    now: () => t,
    staleWhileRevalidate: true,
    ...(budget === undefined ? {} : { revalidationDailyBudget: budget }),
    // The budget's next JST midnight never comes in this test.
    sleep: (_ms, signal) =>
      new Promise<void>((_resolve, reject) =>
        signal?.addEventListener("abort", () => reject(new Error("called off"))),
      ),
  });
  setClientForTesting(client, { lang: "en", headerLanguage: "keys" }, store);
}

test("the year 2026 asked before 7203's results is #N/A; the morning after, unchecked, it says (stale)", async () => {
  const store = new MemoryCacheStore();
  // Monday 11 May 2026, 10:00 JST: 7203's annual results come out at 15:00 (sandbox dataset).
  runtime(jst("2026-05-11T10:00"), store);
  const monday = await cellError(
    KAISHA.FINANCIAL(7203, "sales", 2026, null, null, null, invocation({ address: "A1" })),
  );
  expect(monday.code).toBe("#N/A");
  expect(monday.message).not.toContain("(stale)");

  // Wednesday morning, the results visible, no budget left for the check: the answer is due.
  const copy = new MemoryCacheStore();
  for (const key of await store.keys()) {
    const e = await store.get(key);
    if (e !== undefined)
      await copy.set(key, { body: e.body, storedAt: e.storedAt, bytes: e.bytes });
  }
  runtime(jst("2026-05-13T08:00"), copy, 0);
  const wednesday = await cellError(
    KAISHA.FINANCIAL(7203, "sales", 2026, null, null, null, invocation({ address: "A1" })),
  );
  expect(wednesday.code).toBe("#N/A");
  expect(wednesday.message).toMatch(/No annual period 2026.* \(stale\)$/);
});
