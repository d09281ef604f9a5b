// While the API is down, the last good answer is served (client stale fallback) and the functions
// show that it is stale where a cell can say so.
import { createApp } from "../../sandbox/app";
import * as TYPED from "../../functions/index";

/** The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions). */
const { FINANCIAL, FINANCIALS, PRICES, VALUATION } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;
import { setClientForTesting } from "../../src/session";
import { setHostCapabilities } from "../../functions/host";
import { cellErrorOf, harness, type Harness } from "./support/harness";

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(60_000);

const HOUR = 3_600_000;
const invocation = (): CustomFunctions.CancelableInvocation =>
  ({}) as CustomFunctions.CancelableInvocation;

afterEach(() => setClientForTesting(undefined));

/** Title row of a headers=2 table: identifier, dataset (with the stale note), as-of, source. */
function titleOf(table: unknown): unknown[] {
  expect(Array.isArray(table)).toBe(true);
  return (table as unknown[][])[0] ?? [];
}

/** Fills the cache from a healthy sandbox, then expires it and takes the API down. */
async function warmThenOutage(
  kind: "503" | "drop" | "500",
): Promise<{ h: Harness; sales: unknown; table: unknown }> {
  const h = harness();
  const sales = await FINANCIAL("7203", "sales", 0, null, null, null, invocation());
  const table = await FINANCIALS(
    "7203",
    [["sales"]],
    null,
    5,
    null,
    null,
    null,
    2,
    null,
    invocation(),
  );
  expect(typeof sales).toBe("number");
  expect(JSON.stringify(titleOf(table))).not.toMatch(/stale/i);
  h.clock.now += 8 * 24 * HOUR; // past the weekly revalidation slot (src/client/freshness.ts)
  h.wire.setApp(createApp({ ratePerMinute: 0, faults: { rate: 1, kinds: [kind] } }).app);
  return { h, sales, table };
}

describe("stale fallback while the API is down", () => {
  it.each(["503", "drop", "500"] as const)(
    "%s outage: FINANCIAL keeps the last good value after bounded retries",
    async (kind) => {
      const { h, sales } = await warmThenOutage(kind);
      const before = h.wire.counters.requests;
      await expect(FINANCIAL("7203", "sales", 0, null, null, null, invocation())).resolves.toBe(
        sales,
      );
      expect(h.wire.counters.requests - before).toBe(4); // 1 + maxRetries, then the stale answer
      expect(h.client.stats().staleServed).toBeGreaterThanOrEqual(1);
    },
  );

  it("tables with a title row say the answer is stale, and keep the last good numbers", async () => {
    const { table } = await warmThenOutage("503");
    const stale = await FINANCIALS(
      "7203",
      [["sales"]],
      null,
      5,
      null,
      null,
      null,
      2,
      null,
      invocation(),
    );
    expect(JSON.stringify(titleOf(stale))).toMatch(/stale/i);
    expect((stale as unknown[][]).slice(1)).toEqual((table as unknown[][]).slice(1));
  });

  it("VALUATION and PRICES tables are marked stale too", async () => {
    const h = harness();
    const valuation = await VALUATION("7203", [["per"]], 3, 2, null, null, invocation());
    const prices = await PRICES(
      "7203",
      "2026-10-01",
      "2026-11-19",
      [["close"]],
      null,
      2,
      invocation(),
    );
    h.clock.now += 8 * 24 * HOUR; // past every freshness of these endpoints (weekly slot)
    h.wire.setApp(createApp({ ratePerMinute: 0, faults: { rate: 1, kinds: ["503"] } }).app);
    const staleValuation = await VALUATION("7203", [["per"]], 3, 2, null, null, invocation());
    const stalePrices = await PRICES(
      "7203",
      "2026-10-01",
      "2026-11-19",
      [["close"]],
      null,
      2,
      invocation(),
    );
    expect(JSON.stringify(titleOf(staleValuation))).toMatch(/stale/i);
    expect(JSON.stringify(titleOf(stalePrices))).toMatch(/stale/i);
    expect((staleValuation as unknown[][]).slice(1)).toEqual((valuation as unknown[][]).slice(1));
    expect((stalePrices as unknown[][]).slice(1)).toEqual((prices as unknown[][]).slice(1));
  });

  it("with nothing cached, an outage gives #N/A with a message instead of a value", async () => {
    const h = harness();
    h.wire.setApp(createApp({ ratePerMinute: 0, faults: { rate: 1, kinds: ["503"] } }).app);
    const error = await cellErrorOf(FINANCIAL("7203", "sales", 0, null, null, null, invocation()));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/503/);
    expect(h.client.stats().staleServed).toBe(0);
  });

  it("when the API is back, the fresh answer replaces the stale one and the marker goes", async () => {
    const { h } = await warmThenOutage("503");
    await FINANCIALS("7203", [["sales"]], null, 5, null, null, null, 2, null, invocation());
    h.wire.setApp(h.sandbox.app);
    const fresh = await FINANCIALS(
      "7203",
      [["sales"]],
      null,
      5,
      null,
      null,
      null,
      2,
      null,
      invocation(),
    );
    expect(JSON.stringify(titleOf(fresh))).not.toMatch(/stale/i);
  });
});

describe("single values served stale carry a visible marker where the host can show it", () => {
  it("FINANCIAL during an outage: still the number, formatted with (stale) / （古い値）", async () => {
    const { sales } = await warmThenOutage("503");
    setHostCapabilities({ dataTypes: true });
    try {
      const shown = await FINANCIAL("7203", "sales", 0, null, null, null, invocation());
      expect(shown).toEqual({
        type: "Double",
        basicValue: sales,
        numberFormat: expect.stringMatching(/"( \(stale\)|（古い値）)"$/),
      });
    } finally {
      setHostCapabilities({ dataTypes: false });
    }
  });

  it("a table during an outage: every number of its rows marked, with the default headers too", async () => {
    const { table } = await warmThenOutage("503");
    setHostCapabilities({ dataTypes: true });
    try {
      const shown = await FINANCIALS(
        "7203",
        [["sales"]],
        null,
        5,
        null,
        null,
        null,
        null,
        null,
        invocation(),
      );
      const cells = (shown as unknown[][]).flat();
      const numbers = cells.filter(
        (c) => typeof c === "number" || (typeof c === "object" && c !== null && "basicValue" in c),
      );
      const expected = (table as unknown[][]).slice(1).flat().filter((c) => typeof c === "number");
      expect(numbers.length).toBeGreaterThanOrEqual(expected.length);
      for (const n of numbers)
        expect(n).toMatchObject({
          type: "Double",
          numberFormat: expect.stringMatching(/"( \(stale\)|（古い値）)"$/),
        });
      const values = numbers.map((n) => (n as { basicValue: number }).basicValue);
      for (const v of expected) expect(values).toContain(v);
    } finally {
      setHostCapabilities({ dataTypes: false });
    }
  });

  it("a fresh answer is never marked", async () => {
    harness();
    setHostCapabilities({ dataTypes: true });
    try {
      const shown = await FINANCIAL("7203", "sales", 0, null, null, null, invocation());
      // Formatted as money (separators), with no stale marker in its format.
      expect(shown).toEqual({
        type: "Double",
        basicValue: expect.any(Number),
        numberFormat: "#,##0",
      });
    } finally {
      setHostCapabilities({ dataTypes: false });
    }
  });
});
