// Cells waiting for another cell's fetch (functions/cells/waiting-cell.ts): what one costs in memory,
// and that every one settles as Excel's runtime takes it, cancelled ones dropped alone.
import { financial } from "../../functions/financial-cell";
import { collectGarbage } from "../../bench/memory-sampler";
import type { InvocationLike } from "../../functions/run";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);

afterAll(resetSession);
afterEach(() => jest.useRealTimers());

const ITEMS = ["sales", "operating_profit", "net_income", "total_assets", "eps"];

/** What Excel's runtime does with a result (custom-functions-runtime.js _invokeFunctionAndSetResult). */
interface Taken {
  value?: unknown;
  error?: { code: string; message: string } | undefined;
}

/** Takes a result as the runtime does: a thenable through its `then`, else the value at once. */
function take(result: unknown): Taken {
  const taken: Taken = {};
  const then = (result as { then?: unknown } | null)?.then;
  if (typeof then !== "function") {
    taken.value = result;
    return taken;
  }
  (then as (onValue: (v: unknown) => void, onError: (e: unknown) => void) => unknown).call(
    result,
    (value) => (taken.value = value),
    (error) => (taken.error = error as Taken["error"]),
  );
  return taken;
}

/** FINANCIAL of 6758 for cell `i`: five items over ten years, repeating. */
function cellOf(i: number, inv: InvocationLike) {
  return financial("6758", ITEMS[i % ITEMS.length], -(i % 10), null, null, null, inv);
}

// First in this file: waiting-cell.ts is loaded by the first cell that would wait (define-cell.ts).
describe("before the waiting cells' code has come", () => {
  test("cells that would wait are called again once it has; cancelled ones fail #N/A; one request", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const invocations = Array.from({ length: 6 }, () => invocation());
    const results = invocations.map((inv, i) => cellOf(i, inv));
    // The first started the fetch (the full path); the others wait for the code as promises.
    expect(results.every((r) => r instanceof Promise)).toBe(true);
    invocations[2]?.onCanceled?.();
    const taken = results.map(take);
    await jest.advanceTimersByTimeAsync(300);
    for (const [i, t] of taken.entries()) {
      if (i === 2) expect(t.error?.code).toBe("#N/A");
      else expect(t).toEqual({ value: cellOf(i, invocation()) });
      expect(invocations[i]?.onCanceled).toBeUndefined();
    }
    expect(h.fetches()).toBe(1);
  });
});

describe("a waiting cell's memory", () => {
  test("20,000 cells waiting on one fetch hold under 300 bytes each (no promise, settle functions or closure context)", async () => {
    jest.useFakeTimers();
    useSandbox({ sandbox: { latencyMs: 300 } });
    // Two cells of another company first: the second loads the waiting cells' code.
    [0, 1].map((i) => take(financial("7203", ITEMS[i], 0, null, null, null, invocation())));
    await jest.advanceTimersByTimeAsync(300);
    const count = 20_000;
    const invocations = Array.from({ length: count }, () => invocation());
    const results: unknown[] = new Array<unknown>(count).fill(undefined);
    // The first cell starts the fetch; what it holds (the full path) is not a waiting cell's.
    results[0] = cellOf(0, invocations[0] as InvocationLike);
    // Twice: the first collection may make its own context (bench/memory-sampler.ts).
    collectGarbage();
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 1; i < count; i += 1) results[i] = cellOf(i, invocations[i] as InvocationLike);
    collectGarbage();
    collectGarbage();
    const perCell = (process.memoryUsage().heapUsed - before) / (count - 1);
    // ~215 bytes: the record, its bound cancel handler and its slot in the fetch's list. Before it
    // was its own thenable, ~450 (a promise, its settle functions and their context, a cancel
    // closure and its context, beside the record).
    expect(perCell).toBeLessThan(300);
    const taken = results.map(take);
    await jest.advanceTimersByTimeAsync(300);
    expect(taken.every((t) => typeof t.value === "number")).toBe(true);
  });
});

describe("cells waiting on one fetch", () => {
  test("200 cells settle with the values memory gives afterwards, from one request", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const taken = Array.from({ length: 200 }, (_, i) => take(cellOf(i, invocation())));
    expect(taken.some((t) => "value" in t || "error" in t)).toBe(false);
    await jest.advanceTimersByTimeAsync(300);
    expect(h.sent()).toBe(1);
    for (const [i, t] of taken.entries()) {
      // The same call again is answered from memory at once (the warm path's own value).
      const warm = cellOf(i, invocation());
      expect(typeof warm === "object" && warm !== null && "then" in warm).toBe(false);
      expect(t).toEqual({ value: warm });
    }
    expect(h.sent()).toBe(1);
  });

  test("cancelled cells are dropped (#N/A) while the others settle with their values; one request", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const invocations = Array.from({ length: 60 }, () => invocation());
    const taken = invocations.map((inv, i) => take(cellOf(i, inv)));
    // Excel cancels every third waiting cell (the first one started the fetch: it stays).
    for (let i = 3; i < invocations.length; i += 3) invocations[i]?.onCanceled?.();
    await jest.advanceTimersByTimeAsync(300);
    for (const [i, t] of taken.entries()) {
      if (i > 0 && i % 3 === 0) {
        expect(t.value).toBeUndefined();
        expect(t.error?.code).toBe("#N/A");
      } else {
        expect(t).toEqual({ value: cellOf(i, invocation()) });
      }
      // Settled: no cancel handler is left to keep the cell alive.
      expect(invocations[i]?.onCanceled).toBeUndefined();
    }
    expect(h.fetches()).toBe(1);
  });

  test("a cancel handler called detached, or twice, leaves the fetch once: the others still get it", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const invocations = Array.from({ length: 3 }, () => invocation());
    const taken = invocations.map((inv, i) => take(cellOf(i, inv)));
    const cancel = invocations[1]?.onCanceled;
    cancel?.();
    cancel?.();
    await jest.advanceTimersByTimeAsync(300);
    expect(taken[1]?.error?.code).toBe("#N/A");
    expect(typeof taken[0]?.value).toBe("number");
    expect(typeof taken[2]?.value).toBe("number");
    expect(h.fetches()).toBe(1);
  });

  test("a cell awaited after its fetch settled, and one taken twice, get the same value", async () => {
    jest.useFakeTimers();
    useSandbox({ sandbox: { latencyMs: 300 } });
    const owner = take(cellOf(0, invocation()));
    const late = cellOf(1, invocation());
    const twice = cellOf(2, invocation());
    const first = take(twice);
    const second = take(twice);
    await jest.advanceTimersByTimeAsync(300);
    expect(typeof owner.value).toBe("number");
    // Nobody took `late` before it woke: an await now still reads its value.
    expect(await late).toBe(cellOf(1, invocation()));
    expect(first).toEqual({ value: cellOf(2, invocation()) });
    expect(second).toEqual(first);
  });

  test("a failed fetch gives each waiting cell its error, taken as the runtime takes it", async () => {
    jest.useFakeTimers();
    useSandbox({ sandbox: { latencyMs: 300 } });
    const owner = financial("9984", "sales", 0, null, null, null, invocation());
    const waiting = [1, 2, 3].map((i) =>
      take(financial("9984", ITEMS[i] as string, 0, null, null, null, invocation())),
    );
    const ownerError = cellError(owner);
    await jest.advanceTimersByTimeAsync(300);
    const expected = await ownerError;
    for (const t of waiting) {
      expect(t.value).toBeUndefined();
      expect(t.error?.code).toBe(expected.code);
      expect(t.error?.message).toMatch(/9984/);
    }
  });
});
