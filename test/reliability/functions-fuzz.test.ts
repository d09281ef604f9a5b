// Property-based fuzzing of every KAISHA custom function: each call settles with an Excel value or a
// message-carrying cell error, and arguments openapi.json forbids never cost a request.
import fc from "fast-check";
import * as KAISHA from "../../functions/index";
import { FINANCIAL_ITEMS } from "../../functions/financial-cell";
import { setClientForTesting } from "../../src/session";
import {
  cellErrorProblem,
  excelValueProblem,
  hostileArgument,
  hostileScalar,
} from "./support/excel-values";
import { harness, type Harness } from "./support/harness";
import { isForbiddenIdentifier, type IdentifierKind } from "./support/identifier-oracle";
import { settleWithin } from "./support/settle";

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(60_000);

type CustomFunction = (...args: unknown[]) => unknown;

/** Every exported custom function (upper-case names, as the JSDoc @customfunction ids). */
const FUNCTIONS: [string, CustomFunction][] = Object.entries(KAISHA)
  .filter(([name, value]) => /^[A-Z]+$/.test(name) && typeof value === "function")
  .map(([name, value]) => [name, value as CustomFunction]);

/** Liveness bound (real time) for one call against the healthy in-process sandbox. */
const SETTLE_BOUND_MS = 15_000;

/** The first argument of these functions is an identifier (openapi.json info.description). */
const IDENTIFIER_FIRST: Record<string, IdentifierKind> = {
  FINANCIALS: "company",
  FINANCIAL: "company",
  COMPANY: "company",
  SEGMENTS: "company",
  DIVIDENDS: "company",
  VALUATION: "security",
  PRICES: "security",
  PRICE: "security",
  PEERS: "security",
  DISCLOSURES: "security",
  OFFICERS: "security",
  MARGIN: "security",
  JSFMARGIN: "security",
  DOCUMENT: "doc",
  XBRL: "doc",
  SECTION: "doc",
  PERSON: "person",
  APPOINTMENTS: "person",
  COMPENSATION: "person",
};

const COMPANIES = fc.constantFrom<unknown>(
  "7203",
  7203,
  "130A",
  "130a",
  " 7203 ",
  [["7203"]],
  "9999",
);

/** First arguments that pass validation (or nearly), per function. */
const PLAUSIBLE_FIRST: Record<string, fc.Arbitrary<unknown>> = {
  ...Object.fromEntries(
    Object.entries({
      FINANCIALS: 0,
      FINANCIAL: 0,
      COMPANY: 0,
      SEGMENTS: 0,
      DIVIDENDS: 0,
      VALUATION: 0,
      PRICES: 0,
      PRICE: 0,
      PEERS: 0,
      DISCLOSURES: 0,
      OFFICERS: 0,
      MARGIN: 0,
      JSFMARGIN: 0,
    }).map(([name]) => [name, COMPANIES]),
  ),
  DOCUMENT: fc.constantFrom<unknown>("S1000001", "S100ABCD", "20261101120000"),
  XBRL: fc.constantFrom<unknown>("S1000001", "S100ABCD"),
  SECTION: fc.constantFrom<unknown>("S1000001", "S100ABCD"),
  PERSON: fc.constantFrom<unknown>("100001", 100001, "1"),
  APPOINTMENTS: fc.constantFrom<unknown>("100001", 100001),
  COMPENSATION: fc.constantFrom<unknown>("100001", 100001),
  RANKINGS: fc.constantFrom<unknown>("gainers", "losers", "volume", "stop-high", "stop-low"),
  FIELDS: fc.constantFrom<unknown>(
    "financials",
    "valuations",
    "prices",
    "segments",
    "dividends",
    "margin",
    "jsf",
  ),
  ATTRIBUTION: fc.constantFrom<unknown>("prices", "financials", null),
  SCREEN: fc.constantFrom<unknown>(
    [["per:lt:30"]],
    [["marketCap:gte:100:hundred_million_jpy"]],
    null,
  ),
  SECURITIES: fc.constantFrom<unknown>("ト", "7", null),
};

/** Valid values for the other required arguments, so only the fuzzed one decides. */
const REQUIRED_REST: Record<string, unknown[]> = {
  FINANCIAL: ["sales"],
  XBRL: ["jppfs_cor:NetSales"],
  SECTION: ["mda"],
};

/** Integer arguments with the spec's range (openapi.json parameters): outside it, no request. */
const INTEGER_ARGS: { fn: string; index: number; min: number; max: number; base: unknown[] }[] = [
  { fn: "FINANCIALS", index: 3, min: 1, max: 30, base: ["7203"] },
  { fn: "VALUATION", index: 2, min: 1, max: 50, base: ["7203"] },
  { fn: "RANKINGS", index: 1, min: 1, max: 200, base: ["gainers"] },
  { fn: "PEERS", index: 1, min: 1, max: 20, base: ["7203"] },
];

function functionByName(name: string): CustomFunction {
  const found = FUNCTIONS.find(([n]) => n === name);
  if (found === undefined) throw new Error(`KAISHA.${name} is not exported`);
  return found[1];
}

/** Calls like Excel: positional arguments, then the invocation object. */
function callLikeExcel(
  fn: CustomFunction,
  args: readonly unknown[],
  preview = false,
): Promise<unknown> {
  const arity = Math.max(0, fn.length - 1);
  const positional = Array.from({ length: arity }, (_, i) => (i < args.length ? args[i] : null));
  const invocation: Record<string, unknown> = preview ? { isInValuePreview: true } : {};
  try {
    return Promise.resolve(fn(...positional, invocation));
  } catch (error) {
    // A synchronous throw is an uncaught exception in Excel: record it as a failure.
    return Promise.reject(new Error(`synchronous throw: ${String(error)}`));
  }
}

/** Fails the property unless the call settled properly; returns the error code when it threw. */
async function expectSettlesProperly(
  name: string,
  args: readonly unknown[],
  call: Promise<unknown>,
): Promise<string | undefined> {
  const outcome = await settleWithin(call, SETTLE_BOUND_MS);
  const shown = (): string => `${name}(${args.map((a) => show(a)).join(", ")})`;
  if (outcome.state === "pending")
    throw new Error(`${shown()} did not settle within ${SETTLE_BOUND_MS} ms`);
  if (outcome.state === "fulfilled") {
    const problem = excelValueProblem(outcome.value);
    if (problem !== undefined) throw new Error(`${shown()} returned ${problem}`);
    return undefined;
  }
  const problem = cellErrorProblem(outcome.error);
  if (problem !== undefined) throw new Error(`${shown()} ${problem}`);
  return (outcome.error as { code: string }).code;
}

function show(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…(${value.length})` : value);
  if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function")
    return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

describe("custom functions under fuzzing (in-process sandbox)", () => {
  let h: Harness;
  beforeAll(() => {
    h = harness();
  });
  afterAll(() => setClientForTesting(undefined));

  it("exports the whole catalogue", () => {
    expect(FUNCTIONS.map(([n]) => n).sort()).toEqual(
      [
        "APPOINTMENTS",
        "ATTRIBUTION",
        "COMPANY",
        "COMPENSATION",
        "DISCLOSURES",
        "DIVIDENDS",
        "DOCUMENT",
        "FIELDS",
        "FINANCIAL",
        "FINANCIALS",
        "JSFMARGIN",
        "MARGIN",
        "OFFICERS",
        "PEERS",
        "PERSON",
        "PRICE",
        "PRICES",
        "RANKINGS",
        "SCREEN",
        "SCREENFIELDS",
        "SECTION",
        "SECURITIES",
        "SEGMENTS",
        "USAGE",
        "VALUATION",
        "XBRL",
      ].sort(),
    );
  });

  it.each(FUNCTIONS.map(([name]) => name))(
    "%s: any arguments settle with an Excel value or a #VALUE!/#N/A message",
    async (name) => {
      const fn = functionByName(name);
      const arity = Math.max(0, fn.length - 1);
      // Half the runs start with a plausible first argument, so hostile later arguments also reach
      // the client, the sandbox and the shaping code.
      const first = fc.oneof(hostileArgument, PLAUSIBLE_FIRST[name] ?? hostileArgument);
      await fc.assert(
        fc.asyncProperty(
          first,
          fc.array(hostileArgument, { maxLength: arity }),
          async (head, rest) => {
            const args = [head, ...rest];
            await expectSettlesProperly(name, args, callLikeExcel(fn, args));
          },
        ),
        { numRuns: 30 },
      );
    },
  );

  it("the fuzzing above reached the API, not only argument checks", () => {
    expect(h.wire.counters.requests).toBeGreaterThan(20);
    expect(new Set(h.sandbox.requestLog.map((e) => e.path.split("/")[2])).size).toBeGreaterThan(8);
  });

  it.each(Object.entries(IDENTIFIER_FIRST))(
    "%s: a forbidden %s identifier gives #VALUE! and sends no request",
    async (name, kind) => {
      const fn = functionByName(name);
      const rest = REQUIRED_REST[name] ?? [];
      await fc.assert(
        fc.asyncProperty(hostileArgument, async (id) => {
          const before = h.wire.counters.requests;
          const code = await expectSettlesProperly(
            name,
            [id, ...rest],
            callLikeExcel(fn, [id, ...rest]),
          );
          if (isForbiddenIdentifier(kind, id)) {
            expect(code).toBe("#VALUE!");
            expect(h.wire.counters.requests).toBe(before);
          }
        }),
        { numRuns: 40 },
      );
    },
  );

  it.each(INTEGER_ARGS.map((a) => [`${a.fn} argument ${a.index + 1}`, a] as const))(
    "%s: a number outside the spec's range gives #VALUE! and sends no request",
    async (_label, rule) => {
      const fn = functionByName(rule.fn);
      const outside = fc.oneof(
        fc.integer({ min: rule.max + 1, max: 1e9 }),
        fc.integer({ min: -1e9, max: rule.min - 1 }),
        fc
          .double({ min: rule.min, max: rule.max, noNaN: true })
          .filter((d) => !Number.isInteger(d)),
        fc.constantFrom(
          Number.NaN,
          Number.POSITIVE_INFINITY,
          Number.NEGATIVE_INFINITY,
          true,
          "ten",
          [[1, 2]],
        ),
      );
      await fc.assert(
        fc.asyncProperty(outside, async (value) => {
          const args = [...rule.base];
          while (args.length < rule.index) args.push(null);
          args[rule.index] = value;
          const before = h.wire.counters.requests;
          const code = await expectSettlesProperly(rule.fn, args, callLikeExcel(fn, args));
          expect(code).toBe("#VALUE!");
          expect(h.wire.counters.requests).toBe(before);
        }),
        { numRuns: 30 },
      );
    },
  );

  it("FINANCIAL: an item that is no financials key gives #VALUE! and sends no request", async () => {
    const fn = functionByName("FINANCIAL");
    const lower = FINANCIAL_ITEMS.map((k) => k.toLowerCase());
    const notAnItem = fc
      .oneof(hostileScalar, fc.string())
      .filter(
        (v) =>
          !(
            typeof v === "string" &&
            lower.some((k) => v.normalize("NFKC").toLowerCase().includes(k))
          ),
      );
    await fc.assert(
      fc.asyncProperty(notAnItem, async (item) => {
        const before = h.wire.counters.requests;
        const code = await expectSettlesProperly(
          "FINANCIAL",
          ["7203", item],
          callLikeExcel(fn, ["7203", item]),
        );
        expect(code).toBe("#VALUE!");
        expect(h.wire.counters.requests).toBe(before);
      }),
      { numRuns: 60 },
    );
  });

  it("SCREEN: filters outside the grammar field:op:value[:unit] or over 20 conditions send no request", async () => {
    const fn = functionByName("SCREEN");
    const ops = ["gte", "lte", "gt", "lt", "eq"];
    const badFilters = fc.oneof(
      // openapi.json getScreening: a condition needs at least field:op:value.
      fc
        .string({ minLength: 1 })
        .filter((s) => !s.includes(":") && s.replace(/[,、，\s]/g, "") !== ""),
      fc
        .tuple(
          fc.constantFrom("per", "marketCap", "roe"),
          fc.string({ minLength: 1, maxLength: 8 }),
          fc.integer(),
        )
        .filter(
          ([, op]) =>
            !/[:,、，]/.test(op) && !ops.includes(op.normalize("NFKC").trim().toLowerCase()),
        )
        .map(([field, op, value]) => `${field}:${op}:${value}`),
      // openapi.json getScreening: at most 20 conditions.
      fc
        .integer({ min: 21, max: 40 })
        .map((n) => Array.from({ length: n }, () => "per:lt:15").join(",")),
    );
    await fc.assert(
      fc.asyncProperty(badFilters, async (filters) => {
        const before = h.wire.counters.requests;
        const code = await expectSettlesProperly(
          "SCREEN",
          [filters],
          callLikeExcel(fn, [[[filters]]]),
        );
        expect(code).toBe("#VALUE!");
        expect(h.wire.counters.requests).toBe(before);
      }),
      { numRuns: 60 },
    );
  });

  it("SCREEN: an as_of in the future or before 2005-01-01 sends no request", async () => {
    const fn = functionByName("SCREEN");
    const day = (y: number, m: number, d: number): string =>
      `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    const badDay = fc.oneof(
      fc.tuple(
        fc.integer({ min: 2027, max: 2099 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
      ),
      fc.tuple(
        fc.integer({ min: 1900, max: 2004 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(badDay, async ([y, m, d]) => {
        const args = [null, null, null, null, null, day(y, m, d)];
        const before = h.wire.counters.requests;
        const code = await expectSettlesProperly("SCREEN", args, callLikeExcel(fn, args));
        expect(code).toBe("#VALUE!");
        expect(h.wire.counters.requests).toBe(before);
      }),
      { numRuns: 40 },
    );
  });

  it("PRICE: a date before 2005-01-01 (no price data, getPrices) sends no request", async () => {
    const fn = functionByName("PRICE");
    // Excel serials 61 (1900-03-01) .. 38352 (2004-12-31).
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 61, max: 38_352 }), async (serial) => {
        const before = h.wire.counters.requests;
        const code = await expectSettlesProperly(
          "PRICE",
          ["7203", null, serial],
          callLikeExcel(fn, ["7203", null, serial]),
        );
        // #N/A "no prices before 2005", or #VALUE! where a small number reads as a year: never a request.
        expect(["#N/A", "#VALUE!"]).toContain(code);
        expect(h.wire.counters.requests).toBe(before);
      }),
      { numRuns: 40 },
    );
  });

  it("value preview (formula still being typed) never sends a request, whatever the arguments", async () => {
    const fresh = harness();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FUNCTIONS),
        fc.array(hostileArgument, { maxLength: 4 }),
        async ([name, fn], args) => {
          await expectSettlesProperly(name, args, callLikeExcel(fn, ["7203", ...args], true));
        },
      ),
      { numRuns: 150 },
    );
    expect(fresh.wire.counters.requests).toBe(0);
    h = harness();
  });

  it("FIELDS answers from the contract with no request at all", async () => {
    const fn = functionByName("FIELDS");
    await fc.assert(
      fc.asyncProperty(fc.array(hostileArgument, { maxLength: 3 }), async (args) => {
        const before = h.wire.counters.requests;
        await expectSettlesProperly("FIELDS", args, callLikeExcel(fn, args));
        expect(h.wire.counters.requests).toBe(before);
      }),
      { numRuns: 60 },
    );
  });
});
