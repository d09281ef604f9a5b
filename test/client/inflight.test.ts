// Work in flight shared by key: one start per key, `find` and the settled turn, leaving and abandoning.

import { AbortError } from "../../src/client/errors";
import { InFlightRequests, leaveWaiting } from "../../src/client/inflight";

/** A promise settled by hand, and how many times its work was started. */
function manual<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const signals: AbortSignal[] = [];
  const start = (signal: AbortSignal): Promise<T> => {
    signals.push(signal);
    return promise;
  };
  return { promise, resolve, reject, start, signals };
}

/** Every microtask and the next macrotask have run. */
const nextTask = () => new Promise<void>((r) => setImmediate(r));

describe("InFlightRequests", () => {
  test("find answers nothing when no work is under way and never starts any", () => {
    const flights = new InFlightRequests();
    expect(flights.find("a")).toBeUndefined();
    expect(flights.size).toBe(0);
  });

  test("work begun twice under one key starts once and counts the second as coalesced", async () => {
    let coalesced = 0;
    const flights = new InFlightRequests({ onCoalesced: () => (coalesced += 1) });
    const work = manual<string>();
    const first = flights.begin("a", work.start);
    const second = flights.begin("a", work.start);
    expect(second).toBe(first);
    expect(flights.find("a")).toBe(first);
    expect(first.settled).toBe(false);
    work.resolve("body");
    await expect(second.answer).resolves.toBe("body");
    expect(work.signals).toHaveLength(1);
    expect(coalesced).toBe(1);
  });

  test("with the settled turn, a caller woken by the answer finds the flight settled, and a later task does not", async () => {
    const flights = new InFlightRequests({ keepSettledTurn: true });
    const work = manual<string>();
    const flight = flights.begin("a", work.start);
    const seenByWoken = flight.answer.then(() => flights.find("a"));
    work.resolve("body");
    const found = await seenByWoken;
    expect(found).toBe(flight);
    expect(found?.settled).toBe(true);
    await nextTask();
    expect(flights.find("a")).toBeUndefined();
    // The next begin starts the work again.
    const again = manual<string>();
    flights.begin("a", again.start);
    await nextTask();
    expect(again.signals).toHaveLength(1);
  });

  test("a failed flight is findable in its settled turn too, so its outcome is read, not asked again", async () => {
    const flights = new InFlightRequests({ keepSettledTurn: true });
    const work = manual<string>();
    const flight = flights.begin("a", work.start);
    const seen = flight.answer.then(
      () => undefined,
      () => flights.find<string>("a"),
    );
    work.reject(new Error("503"));
    const found = await seen;
    expect(found?.settled).toBe(true);
    await expect(found?.answer).rejects.toThrow("503");
  });

  test("without the settled turn, a flight is forgotten as it settles", async () => {
    const flights = new InFlightRequests();
    const work = manual<string>();
    const flight = flights.begin("a", work.start);
    const seenByWoken = flight.answer.then(() => flights.find("a"));
    work.resolve("body");
    expect(await seenByWoken).toBeUndefined();
  });

  test("the work is aborted only when every holder has left, and a new caller then starts it anew", async () => {
    const flights = new InFlightRequests();
    const work = manual<string>();
    const flight = flights.begin("a", work.start);
    const leaveOne = flights.hold(flight);
    const leaveTwo = flights.hold(flight);
    await Promise.resolve();
    leaveOne();
    leaveOne(); // leaving twice counts once
    expect(work.signals[0]?.aborted).toBe(false);
    expect(flights.find("a")).toBe(flight);
    leaveTwo();
    expect(work.signals[0]?.aborted).toBe(true);
    expect(flights.find("a")).toBeUndefined();
    const next = manual<string>();
    expect(flights.begin("a", next.start)).not.toBe(flight);
  });

  test("waiters leave through the flight alone: woken in order when it settles, abandoned when the last leaves", async () => {
    const flights = new InFlightRequests();
    const kept = manual<string>();
    const keptFlight = flights.begin("kept", kept.start);
    const woken: string[] = [];
    for (const name of ["one", "two", "three"])
      flights.wait(keptFlight, { wake: () => woken.push(name) });
    await Promise.resolve();
    leaveWaiting(keptFlight); // one leaves: the others still hold it
    expect(kept.signals[0]?.aborted).toBe(false);
    kept.resolve("body");
    await keptFlight.answer;
    await Promise.resolve();
    // Every record wakes, the one that left too (a cancelled cell settles then).
    expect(woken).toEqual(["one", "two", "three"]);

    const dropped = manual<string>();
    const droppedFlight = flights.begin("dropped", dropped.start);
    flights.wait(droppedFlight, { wake: () => undefined });
    flights.wait(droppedFlight, { wake: () => undefined });
    await Promise.resolve();
    leaveWaiting(droppedFlight);
    leaveWaiting(droppedFlight);
    expect(dropped.signals[0]?.aborted).toBe(true);
    expect(flights.find("dropped")).toBeUndefined();
  });

  test("leaving a settled flight aborts nothing", async () => {
    const flights = new InFlightRequests({ keepSettledTurn: true });
    const work = manual<string>();
    const flight = flights.begin("a", work.start);
    const leave = flights.hold(flight);
    work.resolve("body");
    await flight.answer;
    await Promise.resolve();
    leave();
    expect(work.signals[0]?.aborted).toBe(false);
  });

  test("join: a caller that aborts gets AbortError alone while the others get the answer", async () => {
    const flights = new InFlightRequests();
    const work = manual<string>();
    const mine = new AbortController();
    const a = flights.join("a", mine.signal, work.start);
    const b = flights.join("a", undefined, work.start);
    mine.abort();
    await expect(a).rejects.toBeInstanceOf(AbortError);
    work.resolve("body");
    await expect(b).resolves.toBe("body");
    expect(work.signals).toHaveLength(1);
    expect(work.signals[0]?.aborted).toBe(false);
  });

  test("join with a signal already aborted starts nothing", async () => {
    const flights = new InFlightRequests();
    const work = manual<string>();
    const gone = new AbortController();
    gone.abort();
    await expect(flights.join("a", gone.signal, work.start)).rejects.toBeInstanceOf(AbortError);
    await nextTask();
    expect(work.signals).toHaveLength(0);
    expect(flights.size).toBe(0);
  });

  test("allSettled waits for every flight, failed ones included", async () => {
    const flights = new InFlightRequests();
    const ok = manual<string>();
    const bad = manual<string>();
    flights.begin("ok", ok.start);
    flights.begin("bad", bad.start);
    let done = false;
    const all = flights.allSettled().then(() => (done = true));
    ok.resolve("body");
    await nextTask();
    expect(done).toBe(false);
    bad.reject(new Error("500"));
    await all;
    expect(done).toBe(true);
  });
});
