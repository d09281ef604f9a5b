// The client's sharing layer: work on one answer keyed by the key now readable, waiters woken as
// records on the entry, and the same map as the client's own requests.

import { createClient } from "../../src/client/client";
import { InFlightRequests } from "../../src/client/inflight";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { createApp } from "../../sandbox/app";
import { sandboxFetch } from "./helpers";

/** A promise settled by hand. */
function manual<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const nextTask = () => new Promise<void>((r) => setImmediate(r));

jest.setTimeout(60_000);

const QUERY = Object.freeze({ security_code: "7203", period: "annual", years: 30 }) as {
  security_code: string;
  period: "annual";
  years: number;
};

describe("client.flights()", () => {
  test("work on an answer is found under the key that began it, never under another key", async () => {
    let key = "kaisha_key_one_0123456789";
    const client = createClient({ apiKey: () => key, fetch: () => new Promise(() => undefined) });
    const flights = client.flights();
    const work = manual<never>();
    const begun = flights.begin("getFinancials", QUERY, () => work.promise);
    expect(flights.find("getFinancials", QUERY)).toBe(begun);
    // An equal query object built anew finds the same work.
    expect(flights.find("getFinancials", { ...QUERY })).toBe(begun);
    key = "kaisha_key_two_0123456789";
    expect(flights.find("getFinancials", QUERY)).toBeUndefined();
    key = "kaisha_key_one_0123456789";
    expect(flights.find("getFinancials", QUERY)).toBe(begun);
  });

  test("the client's own requests are in the same map as the answers cells share", async () => {
    const sandbox = createApp({ ratePerMinute: 0 });
    const toSandbox = sandboxFetch(sandbox);
    const gate = manual<void>();
    const client = createClient({
      baseUrl: "http://sandbox.test/v1",
      apiKey: DEMO_API_KEY,
      ratePerMinute: 0,
      fetch: async (url, init) => {
        await gate.promise;
        return toSandbox(url, init);
      },
    });
    const { work } = client.flights();
    const asked = client.prices({ code: "7203", limit: 1 });
    await nextTask();
    expect(work.size).toBe(1);
    const shared = client.flights().begin("getFinancials", QUERY, () => client.financials(QUERY));
    await nextTask();
    // The answer cells share, and the request it sends: one map.
    expect(work.size).toBe(3);
    gate.resolve();
    await asked;
    expect((await shared.answer).periods.length).toBeGreaterThan(0);
    await nextTask();
    expect(work.size).toBe(0);
  });
});

describe("InFlightRequests.wait", () => {
  test("records waiting for a flight wake once, in order, finding it settled; one failing does not stop the others", async () => {
    const flights = new InFlightRequests({ keepSettledTurn: true });
    const work = manual<string>();
    const flight = flights.begin("a", () => work.promise);
    const woken: string[] = [];
    const waiter = (name: string, fail = false) => ({
      wake() {
        woken.push(`${name}:${String(flights.find("a")?.settled)}`);
        if (fail) throw new Error("its own failure");
      },
    });
    flights.wait(flight, waiter("first"));
    flights.wait(flight, waiter("second", true));
    flights.wait(flight, waiter("third"));
    await nextTask();
    expect(woken).toEqual([]);
    work.resolve("answer");
    await nextTask();
    expect(woken).toEqual(["first:true", "second:true", "third:true"]);
    // Forgotten a turn after it settled; nobody is woken twice.
    expect(flights.find("a")).toBeUndefined();
    expect(woken).toHaveLength(3);
  });

  test("work every waiting record left before it settled is abandoned (its signal aborts)", async () => {
    const flights = new InFlightRequests({ keepSettledTurn: true });
    let signal: AbortSignal | undefined;
    const flight = flights.begin("a", (s) => {
      signal = s;
      return new Promise<string>(() => undefined);
    });
    flights.wait(flight, { wake: () => undefined });
    flights.wait(flight, { wake: () => undefined });
    await nextTask();
    flights.release(flight);
    expect(signal?.aborted).toBe(false);
    flights.release(flight);
    expect(signal?.aborted).toBe(true);
    expect(flights.find("a")).toBeUndefined();
  });
});
