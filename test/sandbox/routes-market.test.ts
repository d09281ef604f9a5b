// Route behaviour of the market endpoints: securities, prices, rankings, screening, margin, JSF.
import { getDataset } from "../../sandbox/data";
import { limitWidth } from "../../sandbox/lib/price-limits";
import { get, makeSandbox, reasons, warmDataset } from "./helpers";

warmDataset();
const sandbox = makeSandbox();

describe("GET /securities (openapi.json listSecurities)", () => {
  test("lists securities ascending by code with the SecurityListItem fields", async () => {
    const answer = await get(sandbox, "/v1/securities");
    expect(answer.status).toBe(200);
    const codes = (answer.body.securities as { code: string }[]).map((s) => s.code);
    expect(codes).toEqual([...codes].sort());
    expect(answer.body.securities.find((s: { code: string }) => s.code === "7203")).toEqual({
      code: "7203",
      name: "大和自動車（サンプル）",
      market: "Prime",
      industry: "輸送用機器",
    });
    expect(answer.body.next_cursor).toBeNull();
  });

  test("q matches part of the name or the code; market and industry filter exactly", async () => {
    const byName = await get(sandbox, `/v1/securities?q=${encodeURIComponent("自動車")}`);
    expect(byName.body.securities.map((s: { code: string }) => s.code)).toEqual(["7203"]);
    const byCode = await get(sandbox, "/v1/securities?q=720");
    expect(byCode.body.securities.map((s: { code: string }) => s.code)).toEqual(["7203"]);
    const growth = await get(sandbox, "/v1/securities?market=Growth");
    expect(growth.body.securities.every((s: { market: string }) => s.market === "Growth")).toBe(
      true,
    );
    const banks = await get(sandbox, `/v1/securities?industry=${encodeURIComponent("銀行業")}`);
    expect(banks.body.securities.map((s: { code: string }) => s.code)).toEqual(["8306", "8331"]);
  });

  test("limit + next_cursor walk the whole list once, in order", async () => {
    const all = (await get(sandbox, "/v1/securities?limit=500")).body.securities as {
      code: string;
    }[];
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor === null ? "" : `&cursor=${cursor}`;
      const page = await get(sandbox, `/v1/securities?limit=20${suffix}`);
      expect(page.status).toBe(200);
      walked.push(...page.body.securities.map((s: { code: string }) => s.code));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(walked).toEqual(all.map((s) => s.code));
  });

  test("a cursor reused with other conditions -> 400 invalid on cursor", async () => {
    const first = await get(sandbox, "/v1/securities?limit=10");
    const reused = await get(
      sandbox,
      `/v1/securities?limit=10&market=Prime&cursor=${first.body.next_cursor}`,
    );
    expect(reused.status).toBe(400);
    expect(reasons(reused)).toEqual(["cursor:invalid"]);
  });
});

describe("GET /securities/{code}/prices (openapi.json getPrices)", () => {
  test("a security listed only on regional exchanges names their daily reports in attribution", async () => {
    const regional = await get(sandbox, "/v1/securities/5964/prices?limit=1");
    expect(regional.body.attribution.source_label).toContain("名古屋証券取引所");
    expect(regional.body.attribution.license_note).toBe(
      (await get(sandbox, "/v1/securities/7203/prices?limit=1")).body.attribution.license_note,
    );
    const main = await get(sandbox, "/v1/securities/7203/prices?limit=1");
    expect(main.body.attribution.source_label).not.toContain("名古屋");
  });

  test("newest first, default 100 rows, fields with units, last day before the data clock", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/prices");
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe("7203");
    expect(answer.body.prices).toHaveLength(100);
    expect(answer.body.prices[0].date).toBe("2026-11-19");
    const dates = answer.body.prices.map((p: { date: string }) => p.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(answer.body.fields).toContainEqual({
      key: "close",
      label: expect.any(String),
      unit: "jpy",
    });
    expect(answer.body.fields).toContainEqual({
      key: "volume",
      label: expect.any(String),
      unit: "shares",
    });
    expect(answer.body.reason).toBeNull();
  });

  test("from/to are inclusive bounds", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/prices?from=2026-11-16&to=2026-11-18");
    expect(answer.body.prices.map((p: { date: string }) => p.date)).toEqual([
      "2026-11-18",
      "2026-11-17",
      "2026-11-16",
    ]);
  });

  test("dates before 2005-01-01 -> 400 out_of_range", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/prices?from=2004-12-31");
    expect(reasons(answer)).toEqual(["from:out_of_range"]);
  });

  test("a range without trading days -> 200, empty prices, reason no_results", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/prices?from=2026-11-21&to=2026-11-23");
    expect(answer.status).toBe(200);
    expect(answer.body.prices).toEqual([]);
    expect(answer.body.reason).toEqual({ code: "no_results", message: expect.any(String) });
  });

  test("pages follow next_cursor; the cursor is bound to code/from/to/limit", async () => {
    const first = await get(sandbox, "/v1/securities/7203/prices?limit=3");
    const second = await get(
      sandbox,
      `/v1/securities/7203/prices?limit=3&cursor=${first.body.next_cursor}`,
    );
    expect(second.body.prices[0].date < first.body.prices[2].date).toBe(true);
    const other = await get(
      sandbox,
      `/v1/securities/6758/prices?limit=3&cursor=${first.body.next_cursor}`,
    );
    expect(reasons(other)).toEqual(["cursor:invalid"]);
  });

  test("a 5-character code with the trailing check digit answers as the 4-character code", async () => {
    const answer = await get(sandbox, "/v1/securities/72030/prices?limit=1");
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe("7203");
  });

  test("unknown security -> 404 not_found", async () => {
    const answer = await get(sandbox, "/v1/securities/0000/prices");
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("not_found");
  });

  test("an earlier data clock hides later days", async () => {
    const rewound = makeSandbox({ now: "2020-01-10T09:00:00Z" });
    const answer = await get(rewound, "/v1/securities/7203/prices?limit=1");
    expect(answer.body.prices[0].date).toBe("2020-01-10");
  });
});

describe("GET /rankings/{metric} (openapi.json getRankings)", () => {
  test("gainers: ranks from 1, change_percent descending and positive, target_date = last trading day", async () => {
    const answer = await get(sandbox, "/v1/rankings/gainers?limit=10");
    expect(answer.status).toBe(200);
    expect(answer.body.metric).toBe("gainers");
    expect(answer.body.target_date).toBe("2026-11-19");
    const items = answer.body.items as { rank: number; change_percent: number }[];
    expect(items.map((i) => i.rank)).toEqual(items.map((_, n) => n + 1));
    const changes = items.map((i) => i.change_percent);
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
    expect(changes.every((c) => c > 0)).toBe(true);
  });

  test("losers: change_percent ascending and negative", async () => {
    const items = (await get(sandbox, "/v1/rankings/losers")).body.items as {
      change_percent: number;
    }[];
    const changes = items.map((i) => i.change_percent);
    expect(changes).toEqual([...changes].sort((a, b) => a - b));
    expect(changes.every((c) => c < 0)).toBe(true);
  });

  test("on an ex-rights day the previous close is taken on the new share basis (no split crash)", async () => {
    // 9983's 1:3 split: rights last date 2026-02-25, ex-rights 2026-02-26.
    sandbox.setNow("2026-02-26T09:00:00Z");
    try {
      const prices = (await get(sandbox, "/v1/securities/9983/prices?limit=2")).body.prices;
      const [day, previous] = prices as { date: string; close: number; adj_close: number }[];
      expect(day?.date).toBe("2026-02-26");
      const expected =
        Math.round(((day!.adj_close - previous!.adj_close) / previous!.adj_close) * 10_000) / 100;
      // The volume ranking lists every traded security with its change_percent.
      const movers = (await get(sandbox, "/v1/rankings/volume?limit=200")).body.items as {
        security_code: string;
        change_percent: number;
      }[];
      const item = movers.find((i) => i.security_code === "9983");
      expect(Math.abs(item?.change_percent ?? 0)).toBeLessThan(15);
      expect(item?.change_percent).toBeCloseTo(expected, 1);
      const stopLow = (await get(sandbox, "/v1/rankings/stop-low")).body.items as {
        security_code: string;
      }[];
      expect(stopLow.some((i) => i.security_code === "9983")).toBe(false);
    } finally {
      sandbox.reset();
    }
  });

  test("volume: volume descending; ETFs and REITs are not ranked", async () => {
    const items = (await get(sandbox, "/v1/rankings/volume?limit=200")).body.items as {
      volume: number;
      industry_name: string;
    }[];
    const volumes = items.map((i) => i.volume);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    expect(items.some((i) => i.industry_name === "ETF" || i.industry_name === "REIT")).toBe(false);
  });

  test("stop-high and stop-low find the limit moves of the last day", async () => {
    const high = await get(sandbox, "/v1/rankings/stop-high");
    expect(high.body.items.map((i: { security_code: string }) => i.security_code)).toContain(
      "4592",
    );
    const low = await get(sandbox, "/v1/rankings/stop-low");
    expect(low.body.items.map((i: { security_code: string }) => i.security_code)).toContain("2975");
    const item = high.body.items.find((i: { security_code: string }) => i.security_code === "4592");
    const [previous, last] = getDataset().prices.get("4592")?.slice(-2) ?? [];
    const expected =
      Math.round(((last!.close! - previous!.close!) / previous!.close!) * 10_000) / 100;
    expect(item).toMatchObject({ close_price: last!.close, change_percent: expected });
    expect(item.close_price - previous!.close!).toBeGreaterThanOrEqual(
      limitWidth(previous!.close!),
    );
  });

  test("unknown metric -> 404 (not 400)", async () => {
    const answer = await get(sandbox, "/v1/rankings/top");
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("not_found");
  });

  test("price data unavailable -> 503 data_unavailable", async () => {
    const down = makeSandbox({ priceDataAvailable: false });
    const answer = await get(down, "/v1/rankings/gainers");
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe("data_unavailable");
    down.setPriceDataAvailable(true);
    expect((await get(down, "/v1/rankings/gainers")).status).toBe(200);
  });

  test("a data clock before any price -> 200, empty target_date and items, no_results", async () => {
    const early = makeSandbox({ now: "2004-06-01T00:00:00Z" });
    const answer = await get(early, "/v1/rankings/gainers");
    expect(answer.status).toBe(200);
    expect(answer.body.target_date).toBe("");
    expect(answer.body.items).toEqual([]);
    expect(answer.body.reason.code).toBe("no_results");
  });
});

describe("GET /screening (openapi.json getScreening)", () => {
  test("filters with units; metrics carry every referenced metric with as_of", async () => {
    const answer = await get(
      sandbox,
      "/v1/screening?filters=marketCap:gte:10000:hundred_million_jpy,per:lt:40&sort_by=roe&limit=100",
    );
    expect(answer.status).toBe(200);
    expect(answer.body.total_count).toBe(answer.body.securities.length);
    expect(answer.body.total_count).toBeGreaterThan(0);
    for (const security of answer.body.securities as {
      metrics: { field: string; value: number; as_of: string }[];
    }[]) {
      const byField = new Map(security.metrics.map((m) => [m.field, m]));
      expect([...byField.keys()].sort()).toEqual(["marketCap", "per", "roe"]);
      expect(byField.get("marketCap")!.value).toBeGreaterThanOrEqual(1e12);
      expect(byField.get("per")!.value).toBeLessThan(40);
      expect(byField.get("marketCap")!.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const roes = answer.body.securities.map(
      (s: { metrics: { field: string; value: number }[] }) =>
        s.metrics.find((m) => m.field === "roe")?.value,
    );
    expect(roes).toEqual([...roes].sort((a, b) => b - a));
  });

  test("the same threshold written in yen, million_jpy and hundred_million_jpy gives the same result", async () => {
    const codes = async (filter: string) =>
      (await get(sandbox, `/v1/screening?filters=${filter}&limit=100`)).body.securities.map(
        (s: { security_code: string }) => s.security_code,
      );
    const yen = await codes("marketCap:gte:1000000000000");
    expect(await codes("marketCap:gte:1000000:million_jpy")).toEqual(yen);
    expect(await codes("marketCap:gte:10000:hundred_million_jpy")).toEqual(yen);
  });

  test("sort_order asc reverses the order; without sort_by results are by code", async () => {
    const asc = await get(sandbox, "/v1/screening?sort_by=marketCap&sort_order=asc&limit=5");
    const values = asc.body.securities.map(
      (s: { metrics: { value: number }[] }) => s.metrics[0]?.value,
    );
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const plain = await get(sandbox, "/v1/screening?limit=100");
    const codes = plain.body.securities.map((s: { security_code: string }) => s.security_code);
    expect(codes).toEqual([...codes].sort());
    expect(plain.body.securities[0].metrics).toEqual([]);
  });

  test("old-unit money threshold -> 400 (migration guard)", async () => {
    const answer = await get(sandbox, "/v1/screening?filters=marketCap:gte:1000");
    expect(answer.status).toBe(400);
    expect(reasons(answer)).toEqual(["filters:out_of_range"]);
  });

  test("incompatible unit -> 400 listing the accepted units", async () => {
    const answer = await get(sandbox, "/v1/screening?filters=per:lt:15:percent");
    expect(answer.status).toBe(400);
    expect(answer.body.error.details[0].expected).toBe("unit for per: times");
  });

  test("21 conditions (filters + sector + industry) -> 400 too_many_items; 20 are accepted", async () => {
    const nineteen = Array.from({ length: 19 }, () => "per:gt:0").join(",");
    const sector = encodeURIComponent("自動車・輸送機");
    const ok = await get(sandbox, `/v1/screening?filters=${nineteen}&sector=${sector}`);
    expect(ok.status).toBe(200);
    const industry = encodeURIComponent("輸送用機器");
    const tooMany = await get(
      sandbox,
      `/v1/screening?filters=${nineteen}&sector=${sector}&industry=${industry}`,
    );
    expect(reasons(tooMany)).toEqual(["filters:too_many_items"]);
  });

  test("sector and industry filter by TSE 17 / TSE 33 names; unknown names -> 400", async () => {
    const autos = await get(sandbox, `/v1/screening?industry=${encodeURIComponent("輸送用機器")}`);
    expect(autos.body.securities.map((s: { security_code: string }) => s.security_code)).toEqual([
      "7203",
      "7267",
      "7269",
    ]);
    const unknown = await get(sandbox, `/v1/screening?industry=${encodeURIComponent("自動車")}`);
    expect(reasons(unknown)).toEqual(["industry:unknown_value"]);
  });

  test("as_of before 2005-01-01 or after the data clock -> 400 out_of_range", async () => {
    expect(reasons(await get(sandbox, "/v1/screening?as_of=2004-12-31"))).toEqual([
      "as_of:out_of_range",
    ]);
    expect(reasons(await get(sandbox, "/v1/screening?as_of=2026-11-21"))).toEqual([
      "as_of:out_of_range",
    ]);
    expect((await get(sandbox, "/v1/screening?as_of=2026-11-20")).status).toBe(200);
  });

  test("as_of evaluates metrics at that date", async () => {
    const answer = await get(
      sandbox,
      "/v1/screening?name=大和自動車&filters=closePrice:gt:0&as_of=2015-06-30",
    );
    const metric = answer.body.securities[0].metrics[0];
    expect(metric.field).toBe("closePrice");
    expect(metric.as_of <= "2015-06-30").toBe(true);
  });

  test("results metrics follow the 24-hour rule: a year's figures appear 24 hours after its tanshin", async () => {
    // 3697's FY2026/09 results tanshin was disclosed 2026-11-20 06:00Z, under 24 hours before the clock.
    const path = `/v1/screening?name=${encodeURIComponent("データ")}&filters=sales:gt:0`;
    const sales = async (): Promise<{ field: string; value: number; as_of: string }> =>
      (await get(sandbox, path)).body.securities.find(
        (s: { security_code: string }) => s.security_code === "3697",
      ).metrics[0];
    const annual = async (): Promise<{ fiscal_year: string; sales: number }[]> =>
      (await get(sandbox, "/v1/financials?security_code=3697&years=1")).body.periods;
    const [latest] = await annual();
    const before = await sales();
    expect(before.as_of).toBe("2025-09-30");
    expect(before.value).toBe(latest?.sales);
    sandbox.setNow("2026-11-21T06:00:00Z");
    try {
      const [published] = await annual();
      const after = await sales();
      expect(published?.fiscal_year).toBe("2026/09");
      expect(after).toEqual({ field: "sales", value: published?.sales, as_of: "2026-09-30" });
    } finally {
      sandbox.reset();
    }
  });

  test("cursor pages through total_count; reusing it with other filters -> 400", async () => {
    const first = await get(sandbox, "/v1/screening?filters=per:gt:0&limit=10");
    expect(first.body.next_cursor).not.toBeNull();
    const second = await get(
      sandbox,
      `/v1/screening?filters=per:gt:0&limit=10&cursor=${first.body.next_cursor}`,
    );
    expect(second.body.total_count).toBe(first.body.total_count);
    const overlap = second.body.securities.filter((s: { security_code: string }) =>
      first.body.securities.some(
        (f: { security_code: string }) => f.security_code === s.security_code,
      ),
    );
    expect(overlap).toEqual([]);
    const reused = await get(
      sandbox,
      `/v1/screening?filters=per:gt:1&limit=10&cursor=${first.body.next_cursor}`,
    );
    expect(reasons(reused)).toEqual(["cursor:invalid"]);
  });

  test("unknown sort_by -> 400 unknown_value", async () => {
    expect(reasons(await get(sandbox, "/v1/screening?sort_by=sector"))).toEqual([
      "sort_by:unknown_value",
    ]);
  });
});

describe("GET /securities/{code}/weekly-margin-balance (getWeeklyMarginBalance)", () => {
  test("52w by default: the last 52 weeks, oldest first, exchange XTKS", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/weekly-margin-balance");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ security_code: "7203", exchange: "XTKS", period: "52w" });
    expect(answer.body.weeks).toHaveLength(52);
    const dates = answer.body.weeks.map((w: { report_date: string }) => w.report_date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.at(-1) <= "2026-11-20").toBe(true);
    expect(answer.body.fields).toContainEqual({
      key: "issued_shares_count",
      label: expect.any(String),
      unit: "shares",
    });
  });

  test("26w: the last 26 weeks", async () => {
    const full = await get(sandbox, "/v1/securities/7203/weekly-margin-balance");
    const half = await get(sandbox, "/v1/securities/7203/weekly-margin-balance?period=26w");
    expect(half.body.period).toBe("26w");
    expect(half.body.weeks).toEqual(full.body.weeks.slice(-26));
  });

  test("a split inside the window -> applied with its events; outside the 26w window -> not-applicable", async () => {
    const year = await get(sandbox, "/v1/securities/9983/weekly-margin-balance");
    expect(year.body.split_adjustment_status).toBe("applied");
    expect(
      year.body.split_events.map((e: { rights_last_date: string }) => e.rights_last_date),
    ).toEqual(["2026-02-25", "2027-02-24"]);
    // openapi.json getWeeklyMarginBalance: events after the displayed period are listed too, with
    // applied_from_report_date null.
    expect(
      year.body.split_events.map(
        (e: { applied_from_report_date: string | null }) => e.applied_from_report_date,
      ),
    ).toEqual(["2026-02-27", null]);
    const half = await get(sandbox, "/v1/securities/9983/weekly-margin-balance?period=26w");
    expect(half.body.split_adjustment_status).toBe("not-applicable");
    expect(half.body.split_events).toEqual([]);
  });

  test("undeterminable: split_events empty", async () => {
    const answer = await get(sandbox, "/v1/securities/3697/weekly-margin-balance");
    expect(answer.body.split_adjustment_status).toBe("undeterminable");
    expect(answer.body.split_events).toEqual([]);
  });

  test("no weekly margin data (regional-only listing) -> 404", async () => {
    const answer = await get(sandbox, "/v1/securities/5964/weekly-margin-balance");
    expect(answer.status).toBe(404);
  });
});

describe("GET /securities/{code}/jsf-margin-daily (openapi.json getJsfMarginDaily)", () => {
  test("1y by default, ending at the latest day, oldest first", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/jsf-margin-daily");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ security_code: "7203", exchange: "XTKS", period: "1y" });
    const dates = answer.body.days.map((d: { date: string }) => d.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.at(-1)).toBe("2026-11-19");
    expect(dates[0] > "2025-11-19").toBe(true);
  });

  test("period and to choose the window; reverse fees are those of the window", async () => {
    const answer = await get(
      sandbox,
      "/v1/securities/7203/jsf-margin-daily?period=1m&to=2026-10-31",
    );
    const dates = answer.body.days.map((d: { date: string }) => d.date);
    expect(dates[0] > "2026-09-30").toBe(true);
    expect(dates.at(-1) <= "2026-10-31").toBe(true);
    for (const fee of [...answer.body.reverse, ...answer.body.other_exchange_reverse]) {
      expect(fee.date > "2026-09-30" && fee.date <= "2026-10-31").toBe(true);
    }
    expect(
      answer.body.other_exchange_reverse.every(
        (f: { exchange_code: string }) => f.exchange_code !== "XTKS",
      ),
    ).toBe(true);
  });

  test("an exchange the security has no data for -> 404; no data at all -> 404", async () => {
    expect((await get(sandbox, "/v1/securities/7203/jsf-margin-daily?exchange=XSAP")).status).toBe(
      404,
    );
    expect((await get(sandbox, "/v1/securities/130A/jsf-margin-daily")).status).toBe(404);
  });
});
