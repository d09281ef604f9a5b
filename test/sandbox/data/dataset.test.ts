// The sample dataset keeps the spec's rules: coverage, accounting identities, splits, valuations,
// dividends, segments, disclosures, officers, peers, margin, JSF and screening metrics.
import {
  getDataset,
  resolveCorporation,
  SANDBOX_DEFAULT_NOW,
  type Dataset,
} from "../../../sandbox/data";
import { companySpecs, priceFactor, shareFactor } from "../../../sandbox/data/companies";
import { isTradingDay } from "../../../sandbox/data/calendar";
import { TSE33_TO_TSE17 } from "../../../sandbox/data/industries";
import type { components } from "../../../src/contract/generated/api-types";

type S = components["schemas"];
type FinancialsPeriod = S["FinancialsPeriod"];

let ds: Dataset;
beforeAll(() => {
  ds = getDataset();
});

const NOW_MS = Date.parse(SANDBOX_DEFAULT_NOW);
const HOUR = 3_600_000;
const edinetOf = (code: string): string => {
  const e = ds.securities.find((s) => s.code === code)?.edinet_code;
  if (!e) throw new Error(`no edinet for ${code}`);
  return e;
};
const annualOf = (code: string): FinancialsPeriod[] =>
  ds.financials.get(edinetOf(code))?.annual ?? [];
const spec = (code: string) => {
  const s = companySpecs().find((c) => c.code === code);
  if (!s) throw new Error(code);
  return s;
};

describe("securities and corporations", () => {
  it("lists at least 60 sample securities on Prime, Standard and Growth, ascending by code", () => {
    const onMarkets = ds.securities.filter((s) => s.market !== null);
    expect(onMarkets.length).toBeGreaterThanOrEqual(60);
    for (const m of ["Prime", "Standard", "Growth"])
      expect(onMarkets.some((s) => s.market === m)).toBe(true);
    const codes = ds.securities.map((s) => s.code);
    expect([...codes].sort()).toEqual(codes);
    expect(new Set(codes).size).toBe(codes.length);
    for (const s of ds.securities) {
      expect(s.code).toMatch(/^[0-9A-Z]{4}$/);
      expect(s.name).toMatch(/サンプル|Sample/);
    }
    expect(codes).toContain("7203");
    expect(codes.some((c) => /[A-Z]/.test(c))).toBe(true);
  });

  it("uses official TSE 33 industries with their TSE 17 sectors, plus ETF and REIT with market null", () => {
    const industries = new Set<string>();
    for (const s of ds.securities) {
      if (s.industry === "ETF" || s.industry === "REIT") {
        expect(s.market).toBeNull();
        expect(s.sector).toBeNull();
        continue;
      }
      expect(TSE33_TO_TSE17[s.industry]).toBe(s.sector);
      industries.add(s.industry);
    }
    expect(industries.size).toBeGreaterThanOrEqual(30);
    expect(ds.securities.find((s) => s.code === "7203")).toMatchObject({
      industry: "輸送用機器",
      sector: "自動車・輸送機",
    });
    expect(ds.securities.some((s) => s.industry === "ETF" && s.edinet_code === null)).toBe(true);
    expect(ds.securities.some((s) => s.industry === "REIT")).toBe(true);
  });

  it("has a non-primary second share class that does not resolve to the corporation", () => {
    const second = ds.securities.filter((s) => !s.is_primary);
    expect(second).toHaveLength(1);
    const sec = second[0] as (typeof second)[number];
    const primary = ds.securities.find((s) => s.is_primary && s.edinet_code === sec.edinet_code);
    expect(primary).toBeDefined();
    expect(resolveCorporation(ds, sec.code)).toBeNull();
    expect(resolveCorporation(ds, primary?.code ?? "")?.primary_code).toBe(primary?.code);
    expect(resolveCorporation(ds, "1306")).toBeNull(); // ETF: no statutory filer
  });

  it("has a corporation listed only on a regional exchange and one that is not listed", () => {
    expect(
      ds.securities.some(
        (s) => s.exchange === "XNGO" && s.listed_on.length === 1 && s.listed_on[0] === "XNGO",
      ),
    ).toBe(true);
    expect([...ds.corporations.values()].some((c) => c.primary_code === null)).toBe(true);
    for (const c of ds.corporations.values()) expect(c.edinet_code).toMatch(/^[EG]\d{5}$/);
  });
});

describe("financials", () => {
  const flowKeys = [
    "sales",
    "cost_of_sales",
    "gross_profit",
    "operating_profit",
    "net_income",
    "operating_cf",
    "investing_cf",
    "fcf",
    "dividends_paid_cf",
  ] as const;

  it("covers 20+ annual fiscal years for long-listed companies, under all three standards and several year-end months", () => {
    const standards = new Set<string>();
    const months = new Set<number>();
    for (const c of companySpecs()) {
      const annual = ds.financials.get(c.edinet)?.annual ?? [];
      if (c.firstFiscalYear === 2005) expect(annual.length).toBeGreaterThanOrEqual(20);
      else expect(annual.length).toBeGreaterThanOrEqual(5);
      for (const r of annual) standards.add(r.accounting_standard);
      months.add(c.fyMonth);
    }
    expect([...standards].sort()).toEqual(["IFRS", "J-GAAP", "US-GAAP"]);
    expect(months.has(3) && months.has(12) && months.size >= 5).toBe(true);
  });

  it("keeps accounting identities on every annual period", () => {
    let checked = 0;
    for (const { annual } of ds.financials.values()) {
      for (const r of annual) {
        if (r.total_assets !== null)
          expect(r.total_assets).toBe((r.total_liabilities ?? NaN) + (r.net_assets ?? NaN));
        if (r.sales !== null) {
          expect(r.gross_profit).toBe(r.sales - (r.cost_of_sales ?? NaN));
          expect(r.fcf).toBe((r.operating_cf ?? NaN) + (r.investing_cf ?? NaN));
        }
        if (r.eps !== null && r.net_income !== null && r.average_shares) {
          expect(Math.abs(r.eps - r.net_income / r.average_shares)).toBeLessThanOrEqual(0.006);
        }
        for (const v of [r.sales, r.net_income, r.total_assets, r.operating_cf])
          if (v !== null) expect(Number.isInteger(v)).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("leaves J-GAAP-only items null for IFRS and US-GAAP periods", () => {
    for (const { annual } of ds.financials.values()) {
      for (const r of annual) {
        if (r.accounting_standard === "J-GAAP" || r.sales === null) continue;
        expect([
          r.ordinary_income,
          r.extraordinary_income,
          r.extraordinary_loss,
          r.non_operating_income,
          r.non_operating_expenses,
        ]).toEqual([null, null, null, null, null]);
      }
    }
    const jgaap = annualOf("7269").at(-1);
    expect(jgaap?.ordinary_income).not.toBeNull();
  });

  it("sums single quarters to the full year for flow items, with balance items only on full_year", () => {
    // Every row checked, the failures asserted at once (an expect per row was most of the time).
    const wrong: unknown[] = [];
    let years = 0;
    for (const { quarterly } of ds.financials.values()) {
      const byYear = new Map<string, FinancialsPeriod[]>();
      for (const r of quarterly)
        byYear.set(r.fiscal_year, [...(byYear.get(r.fiscal_year) ?? []), r]);
      for (const rows of byYear.values()) {
        const full = rows.find((r) => r.quarter === "full_year");
        const quarters = rows.filter((r) => r.quarter !== "full_year");
        for (const q of quarters) {
          if (!/^Q[1-4]$/.test(String(q.quarter))) wrong.push([q.fiscal_year, q.quarter]);
          const balance = [q.total_assets, q.net_assets, q.cash_and_equivalents];
          if (balance.some((v) => v !== null)) wrong.push([q.fiscal_year, q.quarter, balance]);
        }
        if (!full || quarters.length === 0) continue;
        for (const k of flowKeys) {
          const vals = quarters.map((q) => q[k]);
          if (vals.some((v) => v === null)) continue;
          const sum = vals.reduce<number>((a, v) => a + (v ?? 0), 0);
          if (!Object.is(sum, full[k])) wrong.push([full.fiscal_year, k, sum, full[k]]);
        }
        years += 1;
      }
    }
    expect(wrong).toEqual([]);
    expect(years).toBeGreaterThan(800);
  });

  it("returns H1 plus full_year for semiannual, with cash flows that quarterly rows leave null", () => {
    const c = companySpecs().find((x) => x.cfSemiannualOnly);
    const fin = ds.financials.get(c?.edinet ?? "");
    const h1 = fin?.semiannual.find(
      (r) => r.quarter === "H1" && r.fiscal_year === "2020/" + String(c?.fyMonth).padStart(2, "0"),
    );
    expect(h1?.operating_cf).not.toBeNull();
    const q1 = fin?.quarterly.find((r) => r.quarter === "Q1" && r.fiscal_year === h1?.fiscal_year);
    expect(q1?.operating_cf).toBeNull();
    expect(new Set(fin?.semiannual.map((r) => r.quarter))).toEqual(new Set(["H1", "full_year"]));
  });

  it("fills the calendar year of a fiscal-year change with a TTM period, and another with a balance-only period", () => {
    const a2002 = annualOf("2002");
    expect(a2002.map((r) => r.fiscal_year)).toContain("2014/12");
    const ttm = a2002.find((r) => r.fiscal_year === "2015/03");
    const q = ds.financials.get(edinetOf("2002"))?.quarterly ?? [];
    // TTM = the four single quarters ending 2015/03 (Q2..Q4 of 2014/12 and Q1 of the short 2015/03 year).
    const last4 = [
      ...q.filter(
        (r) => r.fiscal_year === "2014/12" && ["Q2", "Q3", "Q4"].includes(r.quarter ?? ""),
      ),
      ...q.filter((r) => r.fiscal_year === "2015/03" && r.quarter === "Q1"),
    ];
    expect(last4).toHaveLength(4);
    expect(ttm?.sales).toBe(last4.reduce((a, r) => a + (r.sales ?? 0), 0));
    expect(a2002.filter((r) => r.fiscal_year.startsWith("2015"))).toHaveLength(1);
    const fill = annualOf("3101").find((r) => r.fiscal_year === "2014/03");
    expect(fill?.sales).toBeNull();
    expect(fill?.net_income).toBeNull();
    expect(fill?.total_assets).not.toBeNull();
  });

  it("fills scope and standard exceptions, and human capital / ESG only where disclosed", () => {
    const all = [...ds.financials.values()].flatMap((f) => f.annual);
    expect(all.some((r) => r.scope_exceptions.length > 0)).toBe(true);
    expect(all.some((r) => Object.keys(r.standard_exceptions).length > 0)).toBe(true);
    for (const r of all) {
      const year = Number(r.fiscal_year.slice(0, 4));
      if (year < 2022) expect(r.ghg_scope1).toBeNull();
      if (year < 2023) expect(r.ratio_of_female_managers).toBeNull();
    }
    expect(annualOf("7203").at(-1)?.ghg_scope1_and_2).not.toBeNull();
  });
});

describe("prices", () => {
  it("runs on trading days from 2005-01-04 to the day before the data clock", () => {
    const p = ds.prices.get("7203") ?? [];
    expect(p[0]?.date).toBe("2005-01-04");
    expect(p.at(-1)?.date).toBe("2026-11-19");
    expect(p.length).toBeGreaterThan(5000);
    for (const d of p) expect(isTradingDay(d.date)).toBe(true);
    expect(p.some((d) => d.date.endsWith("-12-31") || d.date.endsWith("-01-02"))).toBe(false);
  });

  it("keeps OHLC consistent and adj_close on the latest share basis across splits and consolidations", () => {
    // Collected rather than asserted per day: ~370,000 rows.
    const bad: string[] = [];
    for (const sec of ds.securities) {
      const events = companySpecs().find((c) => c.code === sec.code)?.events ?? [];
      const prices = ds.prices.get(sec.code) ?? [];
      if (prices.length < 100) bad.push(`${sec.code}: only ${prices.length} days`);
      for (const d of prices) {
        if (d.close === null) {
          if (d.open !== null || d.high !== null || d.low !== null || d.adj_close !== null)
            bad.push(`${sec.code} ${d.date} partial nulls`);
          continue;
        }
        const { open, high, low, close } = d as {
          open: number;
          high: number;
          low: number;
          close: number;
        };
        if (low > Math.min(open, close) || high < Math.max(open, close))
          bad.push(`${sec.code} ${d.date} OHLC`);
        if (Math.abs((d.adj_close ?? NaN) - close / priceFactor(events, d.date)) > 0.005 + 1e-9)
          bad.push(`${sec.code} ${d.date} adj_close`);
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it("shows a 1:5 split step in close but not in adj_close (7203), and a 10:1 consolidation (5401)", () => {
    const step = (code: string, exDate: string) => {
      const p = ds.prices.get(code) ?? [];
      const i = p.findIndex((d) => d.date === exDate);
      const before = p[i - 1];
      const after = p[i];
      return {
        raw: (after?.close ?? 0) / (before?.close ?? 1),
        adj: (after?.adj_close ?? 0) / (before?.adj_close ?? 1),
      };
    };
    const split = step("7203", spec("7203").events[0]?.exDate ?? "");
    expect(split.raw).toBeGreaterThan(0.15);
    expect(split.raw).toBeLessThan(0.25);
    expect(split.adj).toBeGreaterThan(0.85);
    expect(split.adj).toBeLessThan(1.15);
    const cons = step("5401", spec("5401").events[0]?.exDate ?? "");
    expect(cons.raw).toBeGreaterThan(8);
    expect(cons.raw).toBeLessThan(12);
    expect(cons.adj).toBeGreaterThan(0.85);
    expect(cons.adj).toBeLessThan(1.15);
  });

  it("starts IPO prices on the listing day and has illiquid days without trades", () => {
    expect(ds.prices.get("130A")?.[0]?.date).toBe("2024-03-27");
    expect(ds.prices.get("5964")?.some((d) => d.close === null && d.volume === 0)).toBe(true);
  });
});

describe("valuations", () => {
  it("prices earnings too: a company earning an ROE of 4% or more never trades at a PER of 60+", () => {
    const stretched: string[] = [];
    const latest: number[] = [];
    for (const [code, { history }] of ds.valuations) {
      for (const point of history) {
        const roe = point.roe ?? point.roe_computed;
        if (point.per !== null && roe !== null && roe >= 4 && point.per >= 60)
          stretched.push(`${code} ${point.fiscal_year} PER ${point.per} ROE ${roe}`);
      }
      const per = history[0]?.per;
      if (per !== null && per !== undefined && per > 0) latest.push(per);
    }
    expect(stretched).toEqual([]);
    // The median company trades in the 10-25 band the market usually shows.
    latest.sort((a, b) => a - b);
    expect(latest[Math.floor(latest.length / 2)]).toBeLessThan(25);
  });

  it("computes the latest 7203 year with the openapi.json ValuationHistoryPoint formulas", () => {
    const v = ds.valuations.get("7203");
    const h = v?.history[0];
    const fin = annualOf("7203").at(-1);
    expect(h?.fiscal_year).toBe(fin?.fiscal_year);
    if (!h || !fin) throw new Error("missing");
    const sp = h.stock_price_adjusted as number;
    expect(h.per_source).toBe("reported");
    expect(h.per).toBeCloseTo(sp / (fin.eps_adjusted as number), 1);
    expect(h.eps_adjusted).toBe(fin.eps_computed_adjusted);
    expect(h.pbr_adjusted).toBeCloseTo(sp / (fin.bps_adjusted as number), 1);
    expect(h.market_cap).toBe(Math.round(sp * (fin.shares_outstanding as number)));
    expect(h.dividend_yield_adjusted).toBeCloseTo(((fin.dps_adjusted as number) / sp) * 100, 1);
    expect(h.stock_price_high_adjusted as number).toBeGreaterThanOrEqual(sp);
    expect(h.stock_price_low_adjusted as number).toBeLessThanOrEqual(sp);
    const pos = (v?.history.slice(0, 5) ?? [])
      .map((x) => x.per)
      .filter((p): p is number => p !== null && p > 0);
    expect(v?.per_5y_avg).toBeCloseTo(pos.reduce((a, b) => a + b, 0) / pos.length, 1);
  });

  it("keeps stock_price on the basis of its time before a split and adjusts the _adjusted fields", () => {
    const h = ds.valuations.get("7203")?.history.find((x) => x.fiscal_year === "2021/03");
    expect(h?.stock_price).toBeCloseTo((h?.stock_price_adjusted ?? 0) * 5, 0);
    expect(h?.eps).toBeCloseTo((h?.eps_adjusted ?? 0) * 5, -1);
  });

  it("puts stock_price on the new basis and shares_outstanding on the old one when the year end falls between ex-rights and effective dates", () => {
    const e = spec("6861").events[0];
    expect(e && e.exDate < "2023-03-31" && e.effectiveDate > "2023-03-31").toBe(true);
    const h = ds.valuations.get("6861")?.history.find((x) => x.fiscal_year === "2023/03");
    const fin = annualOf("6861").find((r) => r.fiscal_year === "2023/03");
    expect(h?.stock_price).toBe(h?.stock_price_adjusted); // already split-adjusted on the ex-date
    expect(h?.shares_outstanding).toBe(fin?.shares_outstanding);
    expect(h?.market_cap).toBe(
      Math.round((h?.stock_price_adjusted ?? 0) * (fin?.shares_outstanding ?? 0) * 2),
    );
    expect(h?.pbr_reported).toBeCloseTo(h?.pbr_adjusted ?? NaN, 1);
    expect(h?.bps_reported).toBeCloseTo((h?.bps_adjusted ?? 0) * 2, 1);
  });

  it("nulls the share-basis fields of an unverifiable year but returns yield 0 for its zero dividend", () => {
    const h = ds.valuations.get("3101")?.history.find((x) => x.fiscal_year === "2012/09");
    expect(h).toBeDefined();
    expect([
      h?.per,
      h?.per_source,
      h?.pbr_adjusted,
      h?.pbr_reported,
      h?.bps_adjusted,
      h?.dps_adjusted,
      h?.eps_adjusted,
      h?.market_cap,
    ]).toEqual([null, null, null, null, null, null, null, null]);
    expect(h?.dividend_yield_adjusted).toBe(0);
    expect(h?.dividend_yield_reported).toBe(0);
    expect(h?.stock_price).not.toBeNull();
  });

  it("uses a computed PER denominator where reported EPS is missing", () => {
    const h = ds.valuations.get("9301")?.history.find((x) => x.fiscal_year === "2008/03");
    expect(h?.per_source).toBe("computed");
    expect(h?.eps).toBeNull();
  });
});

describe("dividends", () => {
  it("has every change_type, judged from adjusted DPS", () => {
    const types = new Set<string | null>();
    for (const list of ds.dividends.values()) {
      for (const [i, d] of list.entries()) {
        types.add(d.change_type);
        const prev = list[i - 1];
        if (!prev || prev.annual_dps_adjusted === null || d.annual_dps_adjusted === null) continue;
        if (d.change_type === "increase")
          expect(d.annual_dps_adjusted).toBeGreaterThan(prev.annual_dps_adjusted);
        if (d.change_type === "decrease")
          expect(d.annual_dps_adjusted).toBeLessThan(prev.annual_dps_adjusted);
        if (d.change_type === "cut") expect(d.annual_dps_adjusted).toBe(0);
        if (d.change_type === "increase")
          expect(d.consecutive_dividend_increase_years).toBe(
            (prev.change_type === "increase"
              ? (prev.consecutive_dividend_increase_years ?? 0)
              : 0) + 1,
          );
      }
    }
    for (const t of ["new", "increase", "decrease", "flat", "resume", "cut"])
      expect(types).toContain(t);
  });

  it("judges the 7203 split year on adjusted DPS although the reported DPS is not comparable", () => {
    const recs = ds.dividends.get(edinetOf("7203")) ?? [];
    const y2021 = recs.find((r) => r.fiscal_year === 2021);
    const y2023 = recs.find((r) => r.fiscal_year === 2023);
    expect((y2021?.annual_dps ?? 0) / (y2021?.annual_dps_adjusted ?? 1)).toBeCloseTo(5, 5);
    expect(y2023?.annual_dps).toBe(y2023?.annual_dps_adjusted);
  });

  it("points source_refs at disclosures that exist (timely ones from September 2013)", () => {
    const ids = new Set(ds.disclosures.map((d) => d.item.doc_id));
    const recs = ds.dividends.get(edinetOf("8306")) ?? [];
    for (const r of recs) {
      expect(r.source_refs.length).toBeGreaterThan(0);
      for (const ref of r.source_refs) {
        if (ref.source === "edinet") expect(ids.has(ref.doc_id)).toBe(true);
        if (ref.source === "tdnet" && r.fiscal_year >= 2015) expect(ids.has(ref.doc_id)).toBe(true);
        if (ref.source === "tdnet") expect(ref.doc_id).toMatch(/^\d{14}$/);
      }
    }
  });
});

describe("segments", () => {
  it("orders rows fiscal_year desc, quarter desc, name asc and shares sum to 100% per annual period", () => {
    // Every row checked, the failures asserted at once (an expect per row was most of the time).
    const wrong: unknown[] = [];
    for (const { annual, quarter } of ds.segments.values()) {
      for (const list of [annual, quarter]) {
        for (let i = 1; i < list.length; i += 1) {
          const a = (list[i - 1] as (typeof list)[number]).row;
          const b = (list[i] as (typeof list)[number]).row;
          const key = (r: typeof a) => [r.fiscal_year, String(r.quarter ?? 0)];
          const [fa, qa] = key(a);
          const [fb, qb] = key(b);
          const ordered =
            fa! > fb! ||
            (fa === fb &&
              (Number(qa) > Number(qb) || (qa === qb && a.segment_name < b.segment_name)));
          if (!ordered) wrong.push(["order", a, b]);
        }
      }
      const byYear = new Map<string, number>();
      for (const s of annual)
        byYear.set(
          s.row.fiscal_year,
          (byYear.get(s.row.fiscal_year) ?? 0) + (s.row.revenue_share ?? 0),
        );
      // toBeCloseTo(100, 0): within 0.5.
      for (const [year, total] of byYear)
        if (!(Math.abs(total - 100) < 0.5)) wrong.push(["shares", year, total]);
      for (const s of quarter)
        if (s.row.employees !== null || s.row.assets !== null)
          wrong.push(["quarter", s.row.fiscal_year, s.row.employees, s.row.assets]);
    }
    expect(wrong).toEqual([]);
  });

  it("uses all three basis values, nulls quarter shares when a full-year segment is missing, and computes yoy", () => {
    const all = [...ds.segments.values()].flatMap((s) => [...s.annual, ...s.quarter]);
    const bases = new Set(
      all.map((s) => s.row.revenue_basis).concat(all.map((s) => s.row.operating_income_basis)),
    );
    for (const b of ["disclosed", "derived_upstream", "derived_from_cumulative"])
      expect(bases).toContain(b);
    const q = ds.segments.get(edinetOf("6098"))?.quarter ?? [];
    expect(
      q
        .filter((s) => s.row.fiscal_year === "2020/03" && s.row.quarter === 1)
        .every((s) => s.row.revenue_share === null),
    ).toBe(true);
    expect(
      q
        .filter((s) => s.row.fiscal_year === "2020/03" && s.row.quarter === 4)
        .every((s) => s.row.revenue_share !== null),
    ).toBe(true);
    const a = ds.segments.get(edinetOf("7203"))?.annual ?? [];
    const cur = a.find(
      (s) => s.row.fiscal_year === "2026/03" && s.row.segment_name === "自動車事業",
    );
    const prev = a.find(
      (s) => s.row.fiscal_year === "2025/03" && s.row.segment_name === "自動車事業",
    );
    expect(cur?.row.yoy_growth).toBeCloseTo(
      ((cur?.row.revenue ?? 0) / (prev?.row.revenue ?? 1) - 1) * 100,
      1,
    );
  });

  it("adds single quarters up to the annual row of each segment, also in the year a segment appears", () => {
    for (const [edinet, { annual, quarter }] of ds.segments) {
      const sums = new Map<string, { revenue: number; op: number; quarters: number }>();
      for (const { row } of quarter) {
        const key = `${row.fiscal_year}|${row.segment_name}`;
        const sum = sums.get(key) ?? { revenue: 0, op: 0, quarters: 0 };
        sums.set(key, {
          revenue: sum.revenue + (row.revenue ?? 0),
          op: sum.op + (row.operating_income ?? 0),
          quarters: sum.quarters + 1,
        });
      }
      for (const { row } of annual) {
        const sum = sums.get(`${row.fiscal_year}|${row.segment_name}`);
        // Whole years only (a fiscal-year change leaves a short year against a TTM-filled annual row).
        if (sum === undefined || sum.quarters !== 4) continue;
        const label = `${edinet} ${row.fiscal_year} ${row.segment_name}`;
        expect([label, Math.abs(sum.revenue - (row.revenue ?? 0)) <= 4]).toEqual([label, true]);
        expect([label, Math.abs(sum.op - (row.operating_income ?? 0)) <= 4]).toEqual([label, true]);
      }
    }
    // A new segment takes its own share; the continuing ones keep growing about as before.
    const late = (ds.segments.get(edinetOf("6098"))?.annual ?? []).filter(
      (s) => s.row.fiscal_year === "2020/03" && s.row.segment_name !== "海外事業",
    );
    expect(late.length).toBe(3);
    for (const { row } of late) expect(Math.abs(row.yoy_growth ?? 100)).toBeLessThan(15);
  });

  it("tags rows from timely disclosures under 24 hours old", () => {
    const recent = [...ds.segments.values()]
      .flatMap((s) => s.quarter)
      .filter((s) => NOW_MS - Date.parse(s.source_disclosed_at) < 24 * HOUR);
    expect(recent.length).toBeGreaterThan(0);
    for (const s of recent) expect(Date.parse(s.source_disclosed_at)).toBeLessThanOrEqual(NOW_MS);
  });
});

describe("disclosures", () => {
  it("lists both systems newest first with the id, url and type rules of the contract", () => {
    const list = ds.disclosures;
    // Every item checked, the failures asserted at once (an expect per item was most of the time).
    const wrong: unknown[] = [];
    for (let i = 1; i < list.length; i += 1)
      if (!((list[i - 1]?.meta.disclosed_at ?? "") >= (list[i]?.meta.disclosed_at ?? "")))
        wrong.push(["order", i]);
    const ids = new Set<string>();
    for (const d of list) {
      ids.add(d.item.doc_id);
      const fail = (rule: string) => wrong.push([d.item.doc_id, rule]);
      if (d.item.source === "edinet") {
        if (!/^S[0-9A-Z]{7}$/.test(d.item.doc_id)) fail("doc_id");
        if (d.item.document_type === null) fail("document_type");
        if (!/^https:\/\//.test(String(d.item.source_url))) fail("source_url");
        if (d.meta.available_for_redistribution_at !== d.meta.disclosed_at) fail("redistribution");
      } else {
        if (!/^\d{14}$/.test(d.item.doc_id)) fail("doc_id");
        if (d.item.document_type !== null) fail("document_type");
        if (d.item.source_url !== null) fail("source_url");
        if (
          Date.parse(d.meta.available_for_redistribution_at) - Date.parse(d.meta.disclosed_at) !==
          24 * HOUR
        )
          fail("redistribution");
        if (!(d.item.filing_date! >= "2013-09-01")) fail("filing_date");
      }
      if (!(Date.parse(d.meta.disclosed_at) <= NOW_MS)) fail("disclosed_at");
    }
    expect(wrong).toEqual([]);
    expect(ids.size).toBe(list.length);
    expect(
      list.some((d) => d.item.pdf_url !== null) && list.some((d) => d.item.pdf_url === null),
    ).toBe(true);
  });

  it("has several timely items under 24 hours old", () => {
    const fresh = ds.disclosures.filter(
      (d) => d.item.source === "tdnet" && NOW_MS - Date.parse(d.meta.disclosed_at) < 24 * HOUR,
    );
    expect(fresh.length).toBeGreaterThanOrEqual(3);
  });

  it("has normalized sections, a null-id block, a section over 40,000 characters, and XBRL facts", () => {
    const yuho = ds.disclosures.find(
      (d) => d.security_code === "7203" && d.item.document_type === "有価証券報告書",
    );
    const ids = yuho?.sections.map((s) => s.section_id) ?? [];
    expect(ids).toContain(null);
    for (const id of [
      "business_overview",
      "risk_factors",
      "mda",
      "dividend_policy",
      "major_shareholders",
      "corporate_governance",
      "employees",
    ])
      expect(ids).toContain(id);
    expect(Math.max(...(yuho?.sections.map((s) => s.html_or_text.length) ?? [0]))).toBeGreaterThan(
      40_000,
    );
    const facts = yuho?.xbrl_facts ?? [];
    expect(
      facts.some(
        (f) =>
          typeof f.value === "number" && f.context === "CurrentYearDuration" && f.unit === "JPY",
      ),
    ).toBe(true);
    expect(facts.some((f) => typeof f.value === "string" && f.unit === null)).toBe(true);
    const tdnet = ds.disclosures.find((d) => d.item.source === "tdnet");
    expect(tdnet?.sections.some((s) => s.section_id === "body")).toBe(true);
  });
});

describe("officers and persons", () => {
  it("orders officers current, nominees, retired, and every person_id resolves to a person", () => {
    let nominees = 0;
    for (const list of ds.officers.values()) {
      const groups = list.map((o) => (o.is_current ? 0 : o.is_next_term_nominee ? 1 : 2));
      expect([...groups].sort()).toEqual(groups);
      for (const o of list) {
        expect(ds.persons.has(o.person_id)).toBe(true);
        expect(o.person_id).toMatch(/^\d+$/);
        if (o.is_current || o.is_next_term_nominee) expect(o.last_valid_to).toBeNull();
        else expect(o.last_valid_to).not.toBeNull();
        if (o.is_next_term_nominee) nominees += 1;
      }
      expect(groups).toContain(2);
    }
    expect(nominees).toBeGreaterThan(0);
  });

  it("has people with appointments at several companies and compensation above 100 million yen", () => {
    const persons = [...ds.persons.values()];
    expect(persons.some((p) => new Set(p.appointments.map((a) => a.security_code)).size >= 2)).toBe(
      true,
    );
    const paid = persons.filter((p) => p.compensation.length > 0);
    expect(paid.length).toBeGreaterThan(5);
    for (const p of paid)
      for (const c of p.compensation)
        for (const h of c.history) expect(h.total_comp ?? 0).toBeGreaterThan(1e8);
    expect(persons.some((p) => p.compensation.length >= 2)).toBe(true);
    for (const p of persons) {
      const cur = p.appointments.filter((a) => a.is_current);
      expect(p.appointments.slice(0, cur.length).every((a) => a.is_current)).toBe(true);
      expect(p.current_appointments).toHaveLength(cur.length);
    }
  });
});

describe("peers", () => {
  it("lists peers ascending by code without the requester, with null capital relationships", () => {
    for (const [code, list] of ds.peers) {
      const codes = list.map((p) => p.security_code);
      expect([...codes].sort()).toEqual(codes);
      expect(codes).not.toContain(code);
      for (const p of list) expect(p.capital_relationship).toBeNull();
    }
    expect(ds.peers.get("130A")).toEqual([]);
    expect([...ds.peers.values()].some((l) => l.length > 8)).toBe(true);
  });

  it("replaces a non-listed competitor by its listed parent and reports parent companies", () => {
    const replaced = ds.peers.get("8058")?.find((p) => p.security_code === "7203");
    expect(replaced?.industry).toBe("輸送用機器");
    expect(replaced?.segments).toEqual(["生活消費"]);
    const withParent = ds.peers.get("6301")?.find((p) => p.security_code === "6367");
    expect(withParent?.parent_companies[0]).toMatchObject({
      security_code: "6501",
      party_type: "親会社",
    });
  });
});

describe("weekly margin and JSF", () => {
  it("covers not-applicable, applied and undeterminable cases and a security without weekly data", () => {
    const statuses = new Set([...ds.weeklyMargin.values()].map((w) => w.split_adjustment_status));
    expect(statuses).toEqual(new Set(["not-applicable", "applied", "undeterminable"]));
    expect(ds.weeklyMargin.has("5964")).toBe(false);
    const applied = ds.weeklyMargin.get("9983");
    expect(applied?.split_adjustment_status).toBe("applied");
    expect(applied?.split_events[0]?.applied_from_report_date).not.toBeNull();
    expect(
      ds.weeklyMargin.get("4689")?.split_events.some((e) => e.applied_from_report_date === null),
    ).toBe(true);
    for (const w of applied?.weeks ?? [])
      expect(w.buy_balance_total).toBe(
        Math.round(w.buy_balance_total_reported * (w.split_adjustment_factor ?? NaN)),
      );
    const und = ds.weeklyMargin.get("3697");
    expect(und?.split_adjustment_status).toBe("undeterminable");
    expect(und?.split_events).toEqual([]);
    for (const w of und?.weeks ?? [])
      expect([
        w.buy_balance_total,
        w.sell_balance_total,
        w.split_adjustment_factor,
        w.close_price,
        w.buy_balance_change,
      ]).toEqual([null, null, null, null, null]);
    for (const w of ds.weeklyMargin.values()) {
      if (w.weeks.length === 0) continue;
      const dates = w.weeks.map((x) => x.report_date);
      expect([...dates].sort()).toEqual(dates);
    }
    expect(ds.weeklyMargin.get("7203")?.weeks.length).toBeGreaterThanOrEqual(104);
  });

  it("keeps JSF days over 13 months with net = loan - stock loan, a basis step at the ex-date, and reverse fees", () => {
    const j = ds.jsf.get("9983");
    const days = j?.days ?? [];
    expect((days[0]?.date ?? "9999") <= "2025-10-19").toBe(true);
    for (const d of days) expect(d.net_balance).toBe(d.loan_balance - d.stock_loan_balance);
    const ex = spec("9983").events[0]?.exDate;
    const i = days.findIndex((d) => d.date === ex);
    expect((days[i]?.loan_balance ?? 0) / (days[i - 1]?.loan_balance ?? 1)).toBeGreaterThan(2);
    const all = [...ds.jsf.values()];
    expect(all.some((x) => x.reverse.length > 0)).toBe(true);
    expect(all.some((x) => x.other_exchange_reverse.length > 0)).toBe(true);
    expect(ds.jsf.get("5964")?.exchange).toBe("XNGO");
    for (const x of all)
      for (const r of x.reverse) expect(r.fee_per_day).toBeCloseTo(r.fee_total / r.fee_days, 4);
  });

  it("keeps JSF balances at a plausible level over the year: no runaway stock loans, no drain to zero", () => {
    for (const [code, j] of ds.jsf) {
      const last = j.days[j.days.length - 1];
      if (last === undefined) continue;
      // A securities-finance stock loan is a small fraction of the issued shares, never most of them.
      const peak = Math.max(...j.days.map((d) => d.stock_loan_balance));
      expect({ code, share: peak / j.issued_shares_count < 0.02 }).toEqual({ code, share: true });
      // The lending ratio (loan / stock loan) stays in the usual 0.3..20 band on the last day.
      const ratio = last.lending_ratio ?? 0;
      expect({ code, ratio: ratio > 0.3 && ratio < 20 }).toEqual({ code, ratio: true });
    }
    // Shorted names (reverse fees) keep stock loans above loans on a good share of days.
    const shorted = ds.jsf.get("7203");
    const over = (shorted?.days ?? []).filter((d) => d.stock_loan_balance > d.loan_balance);
    expect(over.length).toBeGreaterThan((shorted?.days.length ?? 0) / 3);
  });
});

describe("screening", () => {
  it("catalogues camelCase numeric metrics with units plus sector / industry enums", () => {
    const numeric = ds.screeningFields.filter((f) => f.type === "numeric");
    expect(numeric.length).toBeGreaterThanOrEqual(25);
    for (const f of numeric) {
      expect(f.key).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(f.unit).not.toBeNull();
    }
    for (const key of ["sector", "industry"])
      expect(ds.screeningFields.find((f) => f.key === key)).toMatchObject({
        type: "enum",
        unit: null,
      });
  });

  it("evaluates metrics at a date from prices and the results published by then", () => {
    const keys = new Set(ds.screeningFields.map((f) => f.key));
    const m = ds.screeningMetrics("7203", "2026-11-20");
    for (const k of Object.keys(m)) expect(keys.has(k)).toBe(true);
    expect(m.closePrice).toEqual({
      value: ds.prices.get("7203")?.at(-1)?.close,
      as_of: "2026-11-19",
    });
    const fin = annualOf("7203").at(-1) as FinancialsPeriod;
    expect(m.sales?.value).toBe(fin.sales);
    expect(m.marketCap?.value).toBe(
      Math.round((ds.prices.get("7203")?.at(-1)?.adj_close ?? 0) * (fin.shares_outstanding ?? 0)),
    );
    const past = ds.screeningMetrics("7203", "2015-06-01");
    expect(past.sales?.as_of).toBe("2015-03-31");
    expect(past.marketCap?.value).toBeGreaterThan(0);
    // Shares reported before the split are converted to today's basis.
    const adj =
      ds.prices.get("7203")?.find((d) => d.date === past.closePrice?.as_of)?.adj_close ?? 0;
    const row = annualOf("7203").find((r) => r.fiscal_year === "2015/03") as FinancialsPeriod;
    expect(past.marketCap?.value).toBe(
      Math.round(
        adj * (row.shares_outstanding ?? 0) * shareFactor(spec("7203").events, "2015-03-31"),
      ),
    );
    expect(ds.screeningMetrics("130A", "2020-01-06").closePrice).toBeUndefined();
    expect(ds.screeningMetrics("9999", "2026-11-20")).toEqual({});
  });
});
