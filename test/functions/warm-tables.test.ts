// VALUATION and PRICES recalculated from the same fresh answer gives the table a cold session gives for its
// arguments, whatever other shapes of that answer were asked before it.
import { prices } from "../../functions/prices";
import { valuation } from "../../functions/valuation";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

/** fields, years, headers, order, as_of */
type Args = readonly [unknown, unknown, unknown, unknown, unknown];

const SHAPES: readonly Args[] = [
  [null, null, null, null, null],
  [null, 5, null, null, null],
  [null, 5, 2, null, null],
  [null, 5, 0, "asc", null],
  ["per,pbr_adjusted", 3, 1, null, null],
  ["per", 3, 1, null, "FY-2"],
  ["per_5y_avg", null, null, null, null],
];

const call = (args: Args) =>
  valuation("7203", args[0], args[1], args[2], invocation(), args[3], args[4]);

test.each([false, true])(
  "every shape of one answer recalculated gives its own table (formatted numbers %s)",
  async (dataTypes) => {
    const expected: unknown[] = [];
    for (const args of SHAPES) {
      useSandbox({ now: NOW, dataTypes });
      expected.push(await call(args));
    }
    const h = useSandbox({ now: NOW, dataTypes });
    for (const args of SHAPES) await call(args);
    const asked = h.sent();
    for (let round = 0; round < 2; round += 1) {
      const again: unknown[] = [];
      for (const args of [...SHAPES].reverse()) again.unshift(await call(args));
      expect(again).toEqual(expected);
    }
    expect(h.sent()).toBe(asked);
  },
);

/** PRICES: from, to, fields, order, headers (up to the latest day: the client's stored spill). */
type PriceArgs = readonly [unknown, unknown, unknown, unknown, unknown];

const SPILLS: readonly PriceArgs[] = [
  [null, null, null, null, null],
  ["2022-01-01", null, null, null, null],
  ["2022-01-01", null, "close,volume", "desc", 0],
  ["2022-01-01", null, "close,volume", "asc", 0],
  ["2022-01-01", null, "close,volume", "asc", 1],
  ["2022-01-01", null, "adj_close", "asc", 2],
  [null, null, "close", null, 1],
];

const spill = (args: PriceArgs) =>
  prices("7203", args[0], args[1], args[2], args[3], args[4], invocation());

test.each([false, true])(
  "every up-to-latest PRICES spill recalculated gives its own table, with no request (formatted numbers %s)",
  async (dataTypes) => {
    const expected: unknown[] = [];
    for (const args of SPILLS) {
      useSandbox({ now: NOW, dataTypes });
      expected.push(await spill(args));
    }
    const h = useSandbox({ now: NOW, dataTypes });
    for (const args of SPILLS) await spill(args);
    const asked = h.sent();
    for (let round = 0; round < 2; round += 1) {
      const again: unknown[] = [];
      for (const args of [...SPILLS].reverse()) again.unshift(await spill(args));
      expect(again).toEqual(expected);
    }
    expect(h.sent()).toBe(asked);
  },
);
