// FINANCIALS and FINANCIAL against the in-process sandbox: shapes, header modes, layouts, units,
// period selection, LTM, and the request economy (widest window, coalescing, 1,000 cells).
import { FIELD_DICTIONARY } from "../../src/contract";
import { financial } from "../../functions/financial-cell";
import { financials } from "../../functions/financials";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);

type Grid = unknown[][];

afterAll(resetSession);

beforeAll(async () => {
  // The sandbox builds its dataset on first use; do it once, outside the timed tests.
  useSandbox();
  await financials("7203", null, null, null, null, null, null, null, invocation());
});

describe("FINANCIALS", () => {
  test("items_down by default: header row of periods, one row per default item, oldest period first", async () => {
    const h = useSandbox();
    const grid = (await financials(
      "7203",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      invocation(),
    )) as Grid;
    expect(grid[0]?.[0]).toBe("item");
    const periods = grid[0]?.slice(1) as string[];
    expect(periods).toHaveLength(10);
    expect([...periods].sort()).toEqual(periods);
    // The default statement set: headline P&L, balance sheet, cash flow and per-share lines.
    expect(grid.slice(1).map((r) => r[0])).toEqual([
      "sales",
      "operating_profit",
      "ordinary_income",
      "net_income",
      "total_assets",
      "net_assets",
      "shareholders_equity",
      "equity_ratio",
      "operating_cf",
      "investing_cf",
      "financing_cf",
      "cash_and_equivalents",
      "eps",
      "bps",
      "dps",
      "roe",
    ]);
    expect(typeof grid[1]?.[1]).toBe("number");
    expect(h.sent()).toBe(1);
    expect(h.requests()[0]).toBe("/v1/financials?period=annual&security_code=7203&years=30");
  });

  test("headers 0 gives the numbers only; headers 2 adds the title row", async () => {
    useSandbox();
    const none = (await financials(
      "7203",
      "sales,net_income",
      null,
      3,
      null,
      null,
      null,
      0,
      invocation(),
    )) as Grid;
    expect(none).toHaveLength(2);
    expect(none.every((r) => r.length === 3 && r.every((c) => typeof c === "number"))).toBe(true);
    const titled = (await financials(
      "7203",
      "sales",
      null,
      3,
      null,
      null,
      null,
      2,
      invocation(),
    )) as Grid;
    expect(titled[0]).toEqual([
      "7203",
      "financials annual",
      titled[1]?.[3],
      "IRBANK（サンプルデータ）",
    ]);
    expect(titled[1]?.[0]).toBe("item");
    expect(titled[2]?.[0]).toBe("sales");
  });

  test("a scaled table says its unit in the title row", async () => {
    useSandbox();
    const titled = (await financials(
      "7203",
      "sales",
      null,
      2,
      null,
      "million_jpy",
      null,
      2,
      invocation(),
    )) as Grid;
    expect(titled[0]?.[1]).toBe("financials annual (million JPY)");
  });

  test("periods_down: one row per period with fiscal_year first", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      [["sales"], ["eps"]],
      null,
      5,
      null,
      null,
      "periods_down",
      null,
      invocation(),
    )) as Grid;
    expect(grid[0]).toEqual(["fiscal_year", "sales", "eps"]);
    expect(grid).toHaveLength(6);
    expect(String(grid[1]?.[0])).toMatch(/^\d{4}\/\d{2}$/);
  });

  test("quarterly periods are labelled with their quarter and get a quarter column when periods_down", async () => {
    useSandbox();
    const across = (await financials(
      "7203",
      "sales",
      "quarterly",
      2,
      null,
      null,
      null,
      null,
      invocation(),
    )) as Grid;
    expect(
      across[0]?.slice(1).every((c) => /^\d{4}\/\d{2} (Q[1-4]|full_year)$/.test(String(c))),
    ).toBe(true);
    const down = (await financials(
      "7203",
      "sales",
      "quarterly",
      2,
      null,
      null,
      "periods_down",
      null,
      invocation(),
    )) as Grid;
    expect(down[0]).toEqual(["fiscal_year", "quarter", "sales"]);
  });

  test("a quarterly title row is as of the latest quarter, not the running year's end", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      "sales",
      "quarterly",
      2,
      null,
      null,
      null,
      2,
      invocation(),
    )) as Grid;
    // Quarter columns first, full-year columns in their own block after them (no double count).
    const header = grid[1] as string[];
    const quarters = header.filter((c) => / Q[1-4]$/.test(c));
    expect(header.slice(1, quarters.length + 1)).toEqual(quarters);
    expect(header.slice(quarters.length + 1).every((c) => c.endsWith("full_year"))).toBe(true);
    expect(grid[0]?.[2]).toBe(quarters[quarters.length - 1]);
    expect(grid[0]?.[2]).toMatch(/^\d{4}\/\d{2} Q[1-4]$/);
  });

  test("unit scales money items only: sales in millions, eps and equity_ratio untouched", async () => {
    useSandbox();
    const yen = (await financials(
      "7203",
      "sales,eps,equity_ratio",
      null,
      2,
      null,
      null,
      null,
      0,
      invocation(),
    )) as number[][];
    const mil = (await financials(
      "7203",
      "sales,eps,equity_ratio",
      null,
      2,
      null,
      "million_jpy",
      null,
      0,
      invocation(),
    )) as number[][];
    expect(mil[0]?.[1]).toBeCloseTo((yen[0]?.[1] as number) / 1e6, 6);
    expect(mil[1]).toEqual(yen[1]);
    expect(mil[2]).toEqual(yen[2]);
  });

  test('"*" gives every financials field; a range of keys works; Japanese labels on request', async () => {
    useSandbox({ headerLanguage: "ja" });
    const all = (await financials(
      "7203",
      "*",
      null,
      1,
      null,
      null,
      null,
      null,
      invocation(),
    )) as Grid;
    expect(all).toHaveLength(FIELD_DICTIONARY.financials.length + 1);
    expect(all[0]?.[0]).toBe("項目");
    expect(all[1]?.[0]).toBe("売上高");
  });

  test("J-GAAP-only items are empty cells (not 0) for an IFRS filer", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      "ordinary_income",
      null,
      2,
      null,
      null,
      null,
      0,
      invocation(),
    )) as Grid;
    expect(grid[0]).toEqual(["", ""]);
  });

  test("an EDINET code works like the security code", async () => {
    useSandbox();
    const byCode = (await financials(
      "7203",
      "sales",
      null,
      3,
      null,
      null,
      null,
      0,
      invocation(),
    )) as Grid;
    const edinet = (await financials(
      "E91253",
      "sales",
      null,
      3,
      null,
      null,
      null,
      0,
      invocation(),
    )) as Grid;
    expect(edinet).toEqual(byCode);
  });

  test("an unknown item is #VALUE! naming items and FIELDS, and nothing is sent", async () => {
    const h = useSandbox();
    const err = await cellError(
      financials("7203", "sales,profitz", null, null, null, null, null, null, invocation()),
    );
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toContain("items");
    expect(err.message).toContain('FIELDS("financials")');
    expect(h.sent()).toBe(0);
  });

  test("invalid years, layout and unit are #VALUE! before any request", async () => {
    const h = useSandbox();
    expect(
      (await cellError(financials("7203", null, null, 31, null, null, null, null, invocation())))
        .message,
    ).toBe("years 31: use a whole number 1-30");
    expect(
      (await cellError(financials("7203", null, null, null, null, "usd", null, null, invocation())))
        .code,
    ).toBe("#VALUE!");
    expect(
      (
        await cellError(
          financials("7203", null, null, null, null, null, "sideways", null, invocation()),
        )
      ).code,
    ).toBe("#VALUE!");
    expect(h.sent()).toBe(0);
  });
});

describe("FINANCIAL", () => {
  test("the latest value equals the last column of FINANCIALS", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      "sales",
      null,
      10,
      null,
      null,
      null,
      0,
      invocation(),
    )) as number[][];
    const latest = await financial("7203", "sales", null, null, null, null, invocation());
    expect(latest).toBe(grid[0]?.[9]);
    expect(await financial("7203", "sales", -1, null, null, null, invocation())).toBe(grid[0]?.[8]);
  });

  test("fiscal_period as a year, a YYYY/MM label and an Excel date pick the same period", async () => {
    useSandbox();
    const periods = (await financials(
      "7203",
      "sales",
      null,
      3,
      null,
      null,
      null,
      1,
      invocation(),
    )) as Grid;
    const label = String(periods[0]?.[2]); // e.g. "2025/03"
    const year = Number(label.slice(0, 4));
    const value = periods[1]?.[2];
    expect(await financial("7203", "sales", label, null, null, null, invocation())).toBe(value);
    expect(await financial("7203", "sales", year, null, null, null, invocation())).toBe(value);
    // The fiscal year end as an Excel date (last day of the month), and a date three months later.
    const month = Number(label.slice(5, 7));
    const endSerial = Date.UTC(year, month, 0) / 86_400_000 + 25_569;
    expect(await financial("7203", "sales", endSerial, null, null, null, invocation())).toBe(value);
    expect(await financial("7203", "sales", endSerial + 60, null, null, null, invocation())).toBe(
      value,
    );
  });

  test("unit scales the money item", async () => {
    useSandbox();
    const yen = (await financial("7203", "sales", 0, null, null, null, invocation())) as number;
    expect(
      await financial("7203", "sales", 0, null, null, "hundred_million_jpy", invocation()),
    ).toBeCloseTo(yen / 1e8, 6);
    const eps = await financial("7203", "eps", 0, null, null, null, invocation());
    expect(await financial("7203", "eps", 0, null, null, "hundred_million_jpy", invocation())).toBe(
      eps,
    );
  });

  test("a quarter picks the quarterly row and implies period quarterly", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      "sales",
      "quarterly",
      3,
      null,
      null,
      "periods_down",
      null,
      invocation(),
    )) as Grid;
    const q2 = grid.filter((r) => r[1] === "Q2").pop() as unknown[];
    expect(await financial("7203", "sales", q2[0], null, "Q2", null, invocation())).toBe(q2[2]);
    expect(await financial("7203", "sales", q2[0], "quarterly", "q2", null, invocation())).toBe(
      q2[2],
    );
  });

  test("LTM sums the last four single quarters for a flow item", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      "sales",
      "quarterly",
      3,
      null,
      null,
      "periods_down",
      0,
      invocation(),
    )) as Grid;
    const singles = grid.filter((r) => /^Q[1-4]$/.test(String(r[1])));
    const lastFour = singles.slice(-4).reduce((sum, r) => sum + (r[2] as number), 0);
    expect(await financial("7203", "sales", 0, "LTM", null, null, invocation())).toBeCloseTo(
      lastFour,
      0,
    );
  });

  test("LTM of a stock item is the latest balance", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      "total_assets",
      "quarterly",
      3,
      null,
      null,
      "periods_down",
      0,
      invocation(),
    )) as Grid;
    const balances = grid.filter((r) => r[1] === "full_year");
    expect(await financial("7203", "total_assets", 0, "LTM", null, null, invocation())).toBe(
      balances[balances.length - 1]?.[2],
    );
  });

  test("LTM with a quarter ends the twelve months at that quarter; H1 is refused", async () => {
    const h = useSandbox();
    // The sandbox's latest Q4 closes FY2026/03, whose full_year row is the sum of its quarters.
    const fy = await financial("7203", "sales", "2026/03", null, null, null, invocation());
    expect(await financial("7203", "sales", 0, "LTM", "Q4", null, invocation())).toBeCloseTo(
      fy as number,
      0,
    );
    expect(await financial("7203", "sales", 0, "LTM", "full_year", null, invocation())).toBeCloseTo(
      fy as number,
      0,
    );
    const sent = h.sent();
    const err = await cellError(financial("7203", "sales", 0, "LTM", "H1", null, invocation()));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/^quarter "H1"/);
    expect(h.sent()).toBe(sent);
  });

  test("LTM ending at a quarter not disclosed yet says so", async () => {
    useSandbox();
    const err = await cellError(financial("7203", "sales", 2027, "LTM", null, null, invocation()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toContain("no such quarter for 7203");
  });

  test("LTM of cash flow disclosed only half-yearly adds the halves (H1 + last full year - last H1)", async () => {
    const h = useSandbox();
    // 2002 discloses cash flow half-yearly: its single quarters carry no operating_cf.
    const halves = (await financials(
      "2002",
      "operating_cf",
      "semiannual",
      3,
      null,
      null,
      "periods_down",
      0,
      invocation(),
    )) as Grid;
    // H1 rows first, then the full-year rows (FINANCIALS keeps them apart).
    const h1 = halves.filter((r) => r[1] === "H1");
    const years = halves.filter((r) => r[1] === "full_year");
    const last = h1[h1.length - 1] as unknown[];
    const previousH1 = h1[h1.length - 2] as unknown[];
    const fullYear = years[years.length - 1] as unknown[];
    expect(halves[h1.length - 1]).toBe(last);
    expect(fullYear[0]).toBe(previousH1[0]);
    expect(String(last[0]) > String(fullYear[0])).toBe(true);
    const sent = h.sent();
    const ltm = await financial("2002", "operating_cf", 0, "LTM", null, null, invocation());
    expect(ltm).toBeCloseTo(
      (last[2] as number) + (fullYear[2] as number) - (previousH1[2] as number),
      0,
    );
    expect(h.sent() - sent).toBe(1); // the quarterly window; the semiannual one was cached
    const q3 = await cellError(
      financial("2002", "operating_cf", 0, "LTM", "Q3", null, invocation()),
    );
    expect(q3.code).toBe("#N/A");
    expect(q3.message).toContain("half-yearly items end at quarter Q2 or Q4");
  });

  test("LTM of a ratio is refused as #VALUE!", async () => {
    const h = useSandbox();
    const err = await cellError(financial("7203", "roe", 0, "LTM", null, null, invocation()));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toContain("LTM");
    expect(h.sent()).toBe(0);
  });

  test("a null value is an empty cell", async () => {
    useSandbox();
    expect(await financial("7203", "ordinary_income", 0, null, null, null, invocation())).toBe("");
  });

  test("a period the company does not have is #N/A with a message", async () => {
    useSandbox();
    const err = await cellError(
      financial("7203", "sales", "2099/03", null, null, null, invocation()),
    );
    expect(err.code).toBe("#N/A");
    expect(err.message).toContain("2099/03");
  });

  test("a missing item or a contradictory quarter is #VALUE! with nothing sent", async () => {
    const h = useSandbox();
    expect(
      (await cellError(financial("7203", null, 0, null, null, null, invocation()))).message,
    ).toMatch(/^item: /);
    expect(
      (await cellError(financial("7203", "sales", 0, "annual", "Q1", null, invocation()))).message,
    ).toMatch(/^quarter/);
    expect(
      (await cellError(financial("7203", "sales", "last year", null, null, null, invocation())))
        .message,
    ).toMatch(/^fiscal_period/);
    expect(h.sent()).toBe(0);
  });
});

describe("request economy", () => {
  test("every years value and every FINANCIAL cell of a company reuse one widest-window request", async () => {
    const h = useSandbox();
    await financials("7203", null, null, 3, null, null, null, null, invocation());
    await financials("7203", "sales", null, 10, null, null, null, null, invocation());
    await financials("7203", "*", null, 30, null, null, "periods_down", null, invocation());
    await financial("7203", "net_income", -5, null, null, null, invocation());
    expect(h.sent()).toBe(1);
  });

  test("years before the company's history cost no request beyond the widest window", async () => {
    const h = useSandbox();
    // The sandbox history of 7203 is shorter than the 30-year window: it is the whole history.
    const cells = [1990, 1995, 2000, 2004].map((year) =>
      cellError(financial("7203", "sales", year, null, null, null, invocation())),
    );
    for (const err of await Promise.all(cells)) {
      expect(err.code).toBe("#N/A");
      expect(err.message).toMatch(/^No annual period (1990|1995|2000|2004) for 7203/);
    }
    expect(h.requests()).toEqual(["/v1/financials?period=annual&security_code=7203&years=30"]);
  });

  test("concurrent identical calls are coalesced into one request", async () => {
    const h = useSandbox();
    const calls = Array.from({ length: 20 }, () =>
      financials("6758", null, null, null, null, null, null, null, invocation()),
    );
    const results = await Promise.all(calls);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(h.sent()).toBe(1);
    expect(h.client.stats().coalesced).toBeGreaterThan(0);
  });

  test("1,000 FINANCIAL cells over 10 companies cost at most 10 requests", async () => {
    const h = useSandbox();
    const companies = [
      "7203",
      "6758",
      "6501",
      "8306",
      "9020",
      "4502",
      "7974",
      "8001",
      "6861",
      "3382",
    ];
    const items = [
      "sales",
      "operating_profit",
      "net_income",
      "total_assets",
      "net_assets",
      "operating_cf",
      "eps",
      "bps",
      "dps",
      "equity_ratio",
    ];
    const cells: unknown[] = [];
    for (const code of companies) {
      for (const item of items) {
        for (let offset = 0; offset > -10; offset--)
          cells.push(financial(code, item, offset, null, null, null, invocation()));
      }
    }
    expect(cells).toHaveLength(1000);
    const values = await Promise.all(cells);
    expect(values.filter((v) => typeof v === "number").length).toBeGreaterThan(900);
    expect(h.sent()).toBeLessThanOrEqual(10);
    // Recalculating while the answers are fresh costs nothing.
    await Promise.all(
      companies.map((c) => financial(c, "sales", 0, null, null, null, invocation())),
    );
    expect(h.sent()).toBeLessThanOrEqual(10);
  });
});
