// Period and company forms end to end against the in-process sandbox: the value each form reads, and what it costs.
import { dividends } from "../../functions/dividends";
import { financial } from "../../functions/financial-cell";
import { financials } from "../../functions/financials";
import { valuation } from "../../functions/valuation";
import { price, prices } from "../../functions/prices";
import { company } from "../../functions/company";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

let edinet7203 = "";
const sales: Record<string, number> = {};

beforeAll(async () => {
  const h = useSandbox();
  const body = await h.client.financials({ security_code: "7203", period: "annual", years: 30 });
  edinet7203 = body.edinet_code;
  for (const p of body.periods) if (typeof p.sales === "number") sales[p.fiscal_year] = p.sales;
});

const str = (basicValue: string) => ({ type: "String", basicValue });

describe("FINANCIAL reads every period form as the period typed", () => {
  test('=KAISHA.FINANCIAL(7203,"sales",202403) is FY2024/03, not a date serial', async () => {
    useSandbox();
    expect(sales["2024/03"]).toEqual(expect.any(Number));
    expect(await financial(7203, "sales", 202403, null, null, null, invocation())).toBe(
      sales["2024/03"],
    );
    expect(await financial(7203, "sales", "202403", null, null, null, invocation())).toBe(
      sales["2024/03"],
    );
  });

  test("DATE(2024,3,15) is the latest period ended by then: FY2023/03 for a March company", async () => {
    useSandbox();
    expect(await financial(7203, "sales", 45366, null, null, null, invocation())).toBe(
      sales["2023/03"],
    );
    // A date KAISHA itself returned (a formatted serial) reads the same way.
    const cell = { type: "Double", basicValue: 45366, numberFormat: "yyyy-mm-dd" };
    expect(await financial(7203, "sales", cell, null, null, null, invocation())).toBe(
      sales["2023/03"],
    );
    expect(await financial(7203, "sales", 45382, null, null, null, invocation())).toBe(
      sales["2024/03"],
    );
  });

  test.each(["2024/03", "2024年3月期", "令和6年3月期", "FY2024", 2024])(
    "%s is FY2024/03",
    async (form) => {
      useSandbox();
      expect(await financial(7203, "sales", form, null, null, null, invocation())).toBe(
        sales["2024/03"],
      );
    },
  );

  test("FY-1 is the year before the latest, as -1 is", async () => {
    useSandbox();
    const viaToken = await financial(7203, "sales", "FY-1", null, null, null, invocation());
    expect(viaToken).toBe(await financial(7203, "sales", -1, null, null, null, invocation()));
  });

  test("2024Q2 is the quarterly Q2 row, as fiscal_period 2024 with quarter Q2 is", async () => {
    const h = useSandbox();
    const viaToken = await financial(7203, "sales", "2024Q2", null, null, null, invocation());
    const viaArgs = await financial(7203, "sales", 2024, "quarterly", "Q2", null, invocation());
    expect(viaToken).toBe(viaArgs);
    expect(typeof viaToken).toBe("number");
    expect(h.sent()).toBe(1);
  });

  test.each<[string, unknown, string]>([
    ["FQ0", 0, "quarterly"],
    ["FQ-2", -2, "quarterly"],
    ["FH-1", -1, "semiannual"],
    ["LTM", 0, "LTM"],
    ["LTM-1", -1, "LTM"],
  ])("%s reads what fiscal_period %s with period %s reads", async (token, offset, period) => {
    useSandbox();
    const viaToken = await financial(7203, "sales", token, null, null, null, invocation());
    const viaArgs = await financial(7203, "sales", offset, period, null, null, invocation());
    expect(typeof viaToken).toBe("number");
    expect(viaToken).toBe(viaArgs);
  });

  test.each<unknown>([2500, 300_000, 202413, 10_000])(
    "%s is ambiguous or out of range: #VALUE! with the accepted forms, no request",
    async (form) => {
      const h = useSandbox();
      const err = await cellError(financial(7203, "sales", form, null, null, null, invocation()));
      expect(err.code).toBe("#VALUE!");
      expect(err.message).toMatch(/fiscal_period/);
      expect(err.message).toMatch(/202403/);
      expect(h.sent()).toBe(0);
    },
  );

  test("a period that contradicts the token is refused, not half-applied", async () => {
    const h = useSandbox();
    const err = await cellError(
      financial(7203, "sales", "FQ-1", "annual", null, null, invocation()),
    );
    expect(err.code).toBe("#VALUE!");
    expect(h.sent()).toBe(0);
  });
});

describe("company forms", () => {
  test.each<unknown>([
    7203,
    "7203",
    "７２０３",
    72030,
    "XTKS:7203",
    "7203.T",
    "7203 JP",
    "7203 JT Equity",
    { type: "Double", basicValue: 7203, numberFormat: "0" },
    str("7203"),
    // COMPANY's own card, with English keys or Japanese headers.
    { type: "Entity", text: "大和自動車", properties: { security_code: str("7203") } },
    { type: "Entity", text: "大和自動車", properties: { 証券コード: str("7203") } },
    // An Excel Stocks cell: ticker and exchange properties.
    {
      type: "LinkedEntity",
      text: "Daiwa Motor",
      properties: { "Ticker symbol": str("7203"), "Exchange abbreviation": str("XTKS") },
    },
  ])("%j is 7203", async (form) => {
    const h = useSandbox();
    expect(await financial(form, "sales", 202403, null, null, null, invocation())).toBe(
      sales["2024/03"],
    );
    expect(h.requests()).toEqual(["/v1/financials?period=annual&security_code=7203&years=30"]);
  });

  test("the EDINET code reads the same company", async () => {
    useSandbox();
    expect(await financial(edinet7203, "sales", 202403, null, null, null, invocation())).toBe(
      sales["2024/03"],
    );
  });

  test("aliases of one company in four cells share one request", async () => {
    const h = useSandbox();
    const cells = await Promise.all(
      [7203, "7203", 72030, edinet7203].map((c) =>
        financial(c, "sales", 202403, null, null, null, invocation()),
      ),
    );
    expect(new Set(cells)).toEqual(new Set([sales["2024/03"]]));
    expect(h.requests()).toEqual(["/v1/financials?period=annual&security_code=7203&years=30"]);
  });

  test("a new session's EDINET code waits for no call of an earlier session", async () => {
    // Fake time: the earlier answer's 8 s pass only when the test moves the clock.
    jest.useFakeTimers();
    try {
      // An earlier session (another client) asked by security code; its answer is 8 s away.
      useSandbox({ sandbox: { latencyMs: 8_000 } });
      let earlierAnswered = false;
      const earlier = Promise.resolve(
        financial(7203, "sales", 202403, null, null, null, invocation()),
      ).finally(() => (earlierAnswered = true));
      await jest.advanceTimersByTimeAsync(50);
      // The pair that call would teach belongs to its client's sharing layer, not to this session.
      const h = useSandbox();
      let value: unknown;
      const later = Promise.resolve(
        financial(edinet7203, "sales", 202403, null, null, null, invocation()),
      ).then((v) => (value = v));
      // At most a second of the earlier call's eight passes while this one is answered.
      for (let ms = 0; ms < 1_000 && value === undefined; ms += 10)
        await jest.advanceTimersByTimeAsync(10);
      expect(value).toBe(sales["2024/03"]);
      await later;
      // Answered before the earlier session's call (which it would have waited for).
      expect(earlierAnswered).toBe(false);
      expect(h.requests()).toEqual([
        `/v1/financials?edinet_code=${edinet7203}&period=annual&years=30`,
      ]);
      await jest.advanceTimersByTimeAsync(8_000);
      await earlier;
      expect(earlierAnswered).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  test("a whole name (without its note in parentheses) resolves through one cached /securities look-up", async () => {
    const h = useSandbox();
    expect(await financial("大和自動車", "sales", 202403, null, null, null, invocation())).toBe(
      sales["2024/03"],
    );
    expect(await financial("大和自動車", "sales", 202303, null, null, null, invocation())).toBe(
      sales["2023/03"],
    );
    expect(h.requests().filter((r) => r.startsWith("/v1/securities"))).toHaveLength(1);
  });

  test("several matches: #VALUE! listing up to 5 candidates with their codes", async () => {
    useSandbox();
    const err = await cellError(financial("サンプル", "sales", 0, null, null, null, invocation()));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/company/);
    expect(err.message.match(/\b[0-9][0-9A-Z]{3} /g)?.length).toBe(5);
  });

  test("a name in value preview spends no request", async () => {
    const h = useSandbox();
    const err = await cellError(
      financial("大和自動車", "sales", 0, null, null, null, invocation({ isInValuePreview: true })),
    );
    expect(err.code).toBe("#N/A");
    expect(h.sent()).toBe(0);
  });

  test.each<[unknown, RegExp]>([
    [{ type: "Entity", text: "Memo", properties: { note: str("x") } }, /Entity "Memo"/],
    [
      {
        type: "LinkedEntity",
        text: "Microsoft",
        properties: { "Ticker symbol": str("MSFT"), "Exchange abbreviation": str("XNAS") },
      },
      /XNAS/,
    ],
    [{ type: "WebImage", address: "https://example.test/a.png" }, /WebImage/],
    ["123", /company/],
    ["A", /company/],
  ])("%j: #VALUE! naming the argument and what was received, no request", async (form, shown) => {
    const h = useSandbox();
    const err = await cellError(financial(form, "sales", 0, null, null, null, invocation()));
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/^company/);
    expect(err.message).toMatch(shown);
    expect(h.sent()).toBe(0);
  });

  test("a security-code function takes an EDINET code (resolved once) and a Stocks cell", async () => {
    const h = useSandbox();
    const viaCode = await price("7203", "close", null, invocation());
    const viaEdinet = await price(edinet7203, "close", null, invocation());
    expect(viaEdinet).toBe(viaCode);
    const before = h.sent();
    expect(await price(edinet7203, "close", null, invocation())).toBe(viaCode);
    expect(h.sent()).toBe(before);
  });
});

describe("order and quarterly blocks", () => {
  test("quarterly FINANCIALS: quarter rows first, full-year rows after, so SUM over quarters never double-counts", async () => {
    useSandbox();
    const grid = (await financials(
      "7203",
      "sales",
      "quarterly",
      3,
      null,
      null,
      "periods_down",
      1,
      invocation(),
    )) as unknown[][];
    const kinds = grid.slice(1).map((r) => (r[1] === "full_year" ? "year" : "quarter"));
    const firstYear = kinds.indexOf("year");
    expect(firstYear).toBeGreaterThan(0);
    expect(kinds.slice(firstYear).every((k) => k === "year")).toBe(true);
    // The four quarters of a completed year add up to its full-year row.
    const fy = grid.find((r) => r[0] === "2025/03" && r[1] === "full_year") as unknown[];
    const qs = grid.filter((r) => r[0] === "2025/03" && /^Q[1-4]$/.test(String(r[1])));
    expect(qs).toHaveLength(4);
    expect(qs.reduce((sum, r) => sum + (r[2] as number), 0)).toBeCloseTo(fy[2] as number, 0);
  });

  test("order: asc by default on every time series, desc reverses", async () => {
    useSandbox();
    const asc = (await financials(
      "7203",
      "sales",
      null,
      5,
      null,
      null,
      "periods_down",
      0,
      invocation(),
    )) as unknown[][];
    const desc = (await financials(
      "7203",
      "sales",
      null,
      5,
      null,
      null,
      "periods_down",
      0,
      invocation(),
      "desc",
    )) as unknown[][];
    expect(asc.map((r) => r[0])).toEqual([...asc.map((r) => r[0])].sort());
    expect(desc).toEqual([...asc].reverse());
    const v = (await valuation("7203", "per", 5, 0, invocation())) as unknown[][];
    expect(v.map((r) => r[0])).toEqual([...v.map((r) => r[0])].sort());
    const d = (await dividends("7203", null, null, 0, invocation(), "新しい順")) as unknown[][];
    expect(d.map((r) => r[0])).toEqual([...d.map((r) => r[0])].sort().reverse());
    const err = await cellError(dividends("7203", null, null, 0, invocation(), "sideways"));
    expect(err.message).toMatch(/^order/);
  });
});

describe("KAISHA results chained into KAISHA arguments (data-type host)", () => {
  test("a date PRICES returned (formatted number) is PRICE's date; COMPANY's card is FINANCIAL's company", async () => {
    useSandbox({ dataTypes: true });
    const grid = (await prices(
      "7203",
      "2024-03-01",
      "2024-03-29",
      [["close"]],
      "asc",
      0,
      invocation(),
    )) as unknown[][];
    const firstDay = grid[0]?.[0];
    expect(firstDay).toMatchObject({ type: "Double", numberFormat: expect.any(String) });
    expect(await price("7203", "close", firstDay, invocation())).toEqual(grid[0]?.[1]);

    const card = ((await company("7203", invocation())) as unknown[][])[0]?.[0];
    expect(card).toMatchObject({ type: "Entity" });
    expect(await financial(card, "sales", 202403, null, null, null, invocation())).toMatchObject({
      basicValue: sales["2024/03"],
    });
    // A date cell as fiscal_period: the latest period ended by that day.
    expect(await financial(card, "sales", firstDay, null, null, null, invocation())).toMatchObject({
      basicValue: sales["2023/03"],
    });
  });
});
