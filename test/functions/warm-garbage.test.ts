// The garbage a warm FINANCIAL cell leaves per call (V8's sampling heap profiler over many warm
// calls, collected objects counted): a warm recalculation's collector time grows with it (bench
// profile-warm: a fifth of a Model 500 warm recalculation was the collector's).
import { Session } from "node:inspector";
import { FINANCIAL } from "../../functions/index";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { resetSession, shown, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

/**
 * Most bytes a warm FINANCIAL call may allocate, on average (measured: ~128 B). What it needs: its
 * argument pair (financial-cell.ts parse, ~40 B), its number (16 B), the clock's reading (16 B)
 * and, in this small memory tier, an entry moved to the newest end (cache.ts peek, ~40 B). A
 * closure context made on every entry of the row reader, for closures only its failures make, went
 * over it (~196 B).
 */
const MAX_BYTES_PER_CALL = 150;

/** Warm calls measured (and as many before, so the functions are optimized as in a long session). */
const CALLS = 30_000;

/** The kinds of a model's cells: annual relative, a fixed year, quarterly, H2, LTM, a money unit. */
const CELLS: readonly Cell[] = [
  ["sales", "FY-1", null, null, null],
  ["sales", 2023, null, null, null],
  ["operating_profit", -1, "quarterly", "Q2", null],
  ["sales", "2024H2", null, null, "million_jpy"],
  ["net_income", 0, "LTM", null, null],
  ["sales", "FY-2", null, null, "億円"],
];

/**
 * Cells with no value (#N/A), as a real model has a few: run before the measurement, so the
 * optimizer knows their failure paths are taken (the closures building their messages are then
 * made on those paths, not assumed away).
 */
const FAILING: readonly Cell[] = [
  ["sales", "FY-99", null, null, null],
  ["roe", "2024H2", null, null, null],
  ["sales", -99, "LTM", null, null],
];

/** FINANCIAL's arguments but the company and the invocation. */
type Cell = readonly [unknown, unknown, unknown, unknown, unknown];

interface SamplingProfile {
  head: ProfileNode;
}
interface ProfileNode {
  selfSize: number;
  children: ProfileNode[];
}

function post<T>(session: Session, method: string, params: object = {}): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))),
  );
}

function bytesIn(node: ProfileNode): number {
  return node.children.reduce((sum, child) => sum + bytesIn(child), node.selfSize);
}

/**
 * Excel's arguments for 64 calls over `cells`, made before the measured calls (their garbage is
 * the runtime's): one array per call, the invocation last, as custom-functions-runtime.js passes
 * them.
 */
function callsOver(cells: readonly Cell[]): unknown[][] {
  return Array.from({ length: 64 }, (_, i) => [
    7203,
    ...(cells[i % cells.length] as Cell),
    { address: `Sheet1!B${i + 2}` },
  ]);
}

/**
 * `count` calls, each through `apply` as Excel's runtime makes it (custom-functions-runtime.js
 * `call.apply`): the cell is entered as a call of its own, not folded into this loop. The results
 * are kept in `out`.
 */
function callAll(calls: readonly unknown[][], count: number, out: unknown[]): void {
  const cell = FINANCIAL as (...args: unknown[]) => unknown;
  for (let i = 0; i < count; i += 1) {
    // eslint-disable-next-line prefer-spread -- the runtime's own call (custom-functions-runtime.js `call.apply`)
    const result = cell.apply(undefined, calls[i & 63] as unknown[]);
    // A failing cell's error comes as a rejected promise (Excel's runtime takes it).
    if (result instanceof Promise) result.catch(() => undefined);
    out[i & 63] = result;
  }
}

test(`a warm FINANCIAL cell leaves at most ${MAX_BYTES_PER_CALL} B of garbage per call`, async () => {
  const h = useSandbox({ now: NOW });
  const values = await Promise.all(CELLS.map((cell) => callsOver([cell])[0]).map(called));
  // Every kind has a value (a failure would measure the error path instead).
  for (const value of values) expect(typeof value).toBe("number");
  for (const failing of FAILING)
    expect(await shown(called(callsOver([failing])[0] as unknown[]))).toMatchObject({
      error: "#N/A",
    });
  const asked = h.sent();
  const warm = callsOver(CELLS);
  const out = new Array<unknown>(64).fill(0);
  callAll(callsOver([...CELLS, ...FAILING]), CALLS, out);
  callAll(warm, CALLS, out);
  // Warm: each call gave its value at once, with no request.
  expect(out.slice(0, CELLS.length)).toEqual(values);
  expect(h.sent()).toBe(asked);

  const session = new Session();
  session.connect();
  try {
    await post(session, "HeapProfiler.enable");
    await post(session, "HeapProfiler.startSampling", {
      samplingInterval: 64,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    callAll(warm, CALLS, out);
    const { profile } = await post<{ profile: SamplingProfile }>(
      session,
      "HeapProfiler.stopSampling",
    );
    const perCall = bytesIn(profile.head) / CALLS;
    if (perCall > MAX_BYTES_PER_CALL)
      throw new Error(`a warm FINANCIAL call left ${perCall.toFixed(0)} B of garbage`);
  } finally {
    session.disconnect();
  }
});

/** One call with its arguments as Excel passes them. */
function called(args: unknown[] | undefined): unknown {
  return (FINANCIAL as (...a: unknown[]) => unknown)(...(args ?? []));
}
