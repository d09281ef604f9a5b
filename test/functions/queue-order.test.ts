// A cold comps sheet of 50 companies through the custom functions: rows complete one after another, the sheet on screen first.

import { createApp } from "../../sandbox/app";
import { companySpecs } from "../../sandbox/data/companies";
import { MemoryCacheStore } from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { FINANCIAL, PRICES, VALUATION } from "../../functions/index";
import { sandboxFetch, sandboxKaishaClient } from "../client/helpers";
import { resetSession } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

/** The sandbox's operating companies and REITs (each has statements, valuations and prices). */
const CODES = companySpecs()
  .map((c) => c.code)
  .slice(0, 50);

type Cell = (code: string, address: string) => unknown;
const inv = (address: string) => ({ address }) as unknown as CustomFunctions.CancelableInvocation;

/**
 * A row's cells, left to right: sales for 3 years, a quarterly and an LTM figure, VALUATION and
 * PRICES. Four distinct requests a company (annual and quarterly /financials, /valuations,
 * /prices); the other cells share them.
 */
const COLUMNS: readonly Cell[] = [
  (code, a) => FINANCIAL(code, "sales", 0, null as never, null as never, null as never, inv(a)),
  (code, a) => FINANCIAL(code, "sales", -1, null as never, null as never, null as never, inv(a)),
  (code, a) =>
    FINANCIAL(code, "net_income", -2, null as never, null as never, null as never, inv(a)),
  (code, a) =>
    FINANCIAL(code, "sales", 0, "quarterly" as never, "Q2" as never, null as never, inv(a)),
  (code, a) => VALUATION(code, [["per"]], null, null as never, null as never, null, inv(a)),
  (code, a) =>
    PRICES(code, "2026-10-01", "2026-10-31", [["close"]], null as never, null as never, inv(a)),
];

function pacedSession() {
  const sandbox = createApp({ ratePerMinute: 0 });
  const store = new MemoryCacheStore();
  const client = sandboxKaishaClient(sandboxFetch(sandbox), store, { ratePerMinute: 60 });
  setClientForTesting(client, { lang: "en", headerLanguage: "keys" }, store);
  return { client, sandbox };
}

describe("a cold comps sheet through the functions", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("every company's cells complete after its own requests, row by row, the sheet on screen before the other", async () => {
    const { client, sandbox } = pacedSession();
    client.prioritize((address) => address.startsWith("Comps!"));
    // 30 companies on Comps (on screen), 20 on Other; Excel calculates Other first, column by
    // column (every row's first cell, then every row's second): the order that spread each
    // company's requests over the whole build.
    const rows = CODES.map((code, i) => ({
      code,
      sheet: i < 20 ? "Other" : "Comps",
      row: i < 20 ? i + 2 : i - 18,
    }));
    const completed: string[] = [];
    const left = new Map(rows.map((r) => [r.code, COLUMNS.length]));
    const values: unknown[] = [];
    const calls: Promise<unknown>[] = [];
    COLUMNS.forEach((cell, col) => {
      for (const r of rows) {
        const address = `${r.sheet}!${"BCDEFG"[col]}${r.row}`;
        calls.push(
          Promise.resolve(cell(r.code, address)).then(
            (value: unknown) => {
              values.push(value);
              const n = (left.get(r.code) ?? 0) - 1;
              left.set(r.code, n);
              if (n === 0) completed.push(r.code);
            },
            (err: unknown) => values.push({ address, err: String(err) }),
          ),
        );
      }
    });
    await jest.advanceTimersByTimeAsync(5 * 61_000);
    await Promise.all(calls);
    // Real values in every cell (a number, or a table for the spills), no error.
    expect(values.filter((v) => (v as { err?: unknown }).err !== undefined)).toEqual([]);
    expect(CODES).toHaveLength(50);
    // The floor: 4 distinct requests a company, each asked once.
    const urls = sandbox.requestLog.map((e) => `${e.path}?${e.query ?? ""}`);
    expect(urls).toHaveLength(4 * CODES.length);
    expect(new Set(urls).size).toBe(urls.length);
    // Rows complete in row order: Comps' 30 companies, then Other's 20.
    const comps = rows.filter((r) => r.sheet === "Comps").map((r) => r.code);
    const other = rows.filter((r) => r.sheet === "Other").map((r) => r.code);
    expect(completed).toEqual([...comps, ...other]);
    // The first row is complete after its own 4 requests (the cells' shared /financials fetch
    // included: functions/cells/answers.ts sharedAnswer places it by its first cell).
    const companyOf = (e: { path: string; query?: string | undefined }) =>
      /\/securities\/(\w+)\//.exec(e.path)?.[1] ?? /security_code=(\w+)/.exec(e.query ?? "")?.[1];
    expect(sandbox.requestLog.slice(0, 4).map(companyOf)).toEqual(Array(4).fill(comps[0]));
  });
});
