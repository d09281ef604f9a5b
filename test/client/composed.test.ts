// KaishaClient.composed / peekComposed: an answer a domain rule builds (src/domain/price-latest.ts's
// spill) kept by the client under its own key: one build per key, fresh answers unbuilt, the stored
// one handed to the next build, and standing in, marked stale, when a build fails.
import { createClient, isStale, type ResponseOf } from "../../src/client";
import { ConnectionError } from "../../src/client/errors";
import { TEST_KEY, recordingFetch } from "./helpers";

type Prices = ResponseOf<"getPrices">;
const TAG = Object.freeze({ latest: "spill" });
const PARAMS = Object.freeze({ code: "7203", from: "2026-01-05" });
/** 17:00 JST on a Wednesday, after the close: a price answer is fresh until the next close. */
const T0 = Date.UTC(2026, 0, 14, 8, 0);
const DAY = 24 * 60 * 60 * 1000;

function body(date: string): Prices {
  return { code: "7203", prices: [{ date, close: 1 }], next_cursor: null } as unknown as Prices;
}

function setup() {
  let now = T0;
  const rec = recordingFetch();
  const client = createClient({
    apiKey: TEST_KEY,
    fetch: rec.fetch,
    ratePerMinute: 0,
    now: () => now,
  });
  const built: Array<Prices | undefined> = [];
  let answer: () => Promise<Prices> = async () => body("2026-01-14");
  const build = (stored: Prices | undefined) => {
    built.push(stored);
    return answer();
  };
  const ask = () => client.composed("getPrices", PARAMS, TAG, build, {});
  return {
    rec,
    client,
    built,
    ask,
    answerWith: (fn: () => Promise<Prices>) => (answer = fn),
    advance: (ms: number) => (now += ms),
  };
}

test("concurrent callers share one build; a fresh answer is given (and peeked) without building", async () => {
  const { client, built, ask, rec } = setup();
  const [a, b] = await Promise.all([ask(), ask()]);
  expect(a).toBe(b);
  expect(built).toEqual([undefined]);
  expect(await ask()).toEqual(a);
  expect(built).toHaveLength(1);
  expect(client.peekComposed("getPrices", PARAMS, TAG)).toEqual(a);
  // Its own key: the plain request with the same parameters is not it.
  expect(client.peek("getPrices", PARAMS)).toBe(undefined);
  expect(rec.requests).toHaveLength(0);
});

test("once due, the stored answer is handed to the build, and the built one replaces it", async () => {
  const { client, built, ask, answerWith, advance } = setup();
  const first = await ask();
  advance(DAY); // past the next close
  expect(client.peekComposed("getPrices", PARAMS, TAG)).toBe(undefined);
  answerWith(async () => body("2026-01-15"));
  const next = await ask();
  expect(built[1]).toEqual(first);
  expect(next.prices[0]?.date).toBe("2026-01-15");
  expect(client.peekComposed("getPrices", PARAMS, TAG)?.prices[0]?.date).toBe("2026-01-15");
});

test("a build failing for a transient reason gives the stored answer, marked stale", async () => {
  const { ask, answerWith, advance } = setup();
  const first = await ask();
  advance(DAY);
  answerWith(() => Promise.reject(new ConnectionError()));
  const served = await ask();
  expect(served).toEqual(first);
  expect(isStale(served)).toBe(true);
});

test("nothing stored and the build failing: its error", async () => {
  const { ask, answerWith } = setup();
  answerWith(() => Promise.reject(new ConnectionError()));
  await expect(ask()).rejects.toBeInstanceOf(ConnectionError);
});
