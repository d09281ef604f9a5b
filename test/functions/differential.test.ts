// Differential test: every function, every dataset, cell by cell against the same data fetched with
// an independent client (own cache) from the same in-process sandbox: each cell equals the API
// value, scaled only by the money unit asked for, a `percent` value as the fraction api / 100 (the
// one percent scale, README "Percentages"), dates as serials, nulls empty; on plain hosts and on
// hosts with formatted numbers (where the cell's basicValue is compared).
import * as KAISHA from "../../functions/index";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { createClient, type KaishaClient, MemoryCacheStore } from "../../src/client";
import { FIELD_DICTIONARY, type Dataset } from "../../src/contract";
import { isoInstantToJstSerial, isoToSerial } from "../../src/excel/dates";
import { call } from "./call-by-name";
import { resetSession, useSandbox, type Harness } from "./harness";
import { resolveEdinetCode } from "../../src/domain/edinet-resolution";

jest.setTimeout(120_000);
afterAll(resetSession);

type Grid = unknown[][];
type Rec = Record<string, unknown>;

/**
 * Columns whose API values are calendar dates / instants (openapi.json schemas: YYYY-MM-DD / ISO
 * 8601 UTC).
 */
const DATES = new Set([
  "date",
  "filing_date",
  "report_date",
  "first_valid_from",
  "last_valid_to",
  "birth_date",
  "fiscal_period_end",
]);
const INSTANTS = new Set(["disclosed_at", "available_for_redistribution_at"]);
/** The one column name per concept -> the API's name for it on endpoints that differ (labels.ts). */
const API_ALIASES: Readonly<Record<string, string>> = {
  security_code: "code",
  industry: "industry_name",
  close: "close_price",
  security_name: "company_name",
};
const DIVISORS = { jpy: 1, thousand_jpy: 1e3, million_jpy: 1e6, hundred_million_jpy: 1e8 };
type Money = keyof typeof DIVISORS;

/** What a cell holds, formatted or not. */
function raw(cell: unknown): unknown {
  if (cell !== null && typeof cell === "object" && (cell as { type?: string }).type === "Double") {
    return (cell as { basicValue: number }).basicValue;
  }
  return cell;
}

/**
 * The unit a field's value is scaled by: a yen figure that is a price or per-person figure
 * (openapi.json x-money-kind, the dictionary's `money`) is never scaled, so it is not `jpy` here.
 */
function scaleUnit(field: { unit: string; money?: string } | undefined): string | undefined {
  if (field === undefined) return undefined;
  return field.money === undefined ? field.unit : `jpy (${field.money})`;
}

/** The cell an API value must give, computed here from the raw answer, not by the add-in's code. */
function expected(value: unknown, column: string, moneyUnit?: string, money: Money = "jpy") {
  if (value === null || value === undefined) return "";
  if (DATES.has(column) && typeof value === "string") return isoToSerial(value);
  if (INSTANTS.has(column) && typeof value === "string") return isoInstantToJstSerial(value);
  if (typeof value === "number") {
    if (moneyUnit === "percent") return value / 100;
    return moneyUnit === "jpy" ? value / DIVISORS[money] : value;
  }
  if (Array.isArray(value)) return value.map(String).join(", ");
  return value;
}

/** A `percent` API value as the sheet holds it (api / 100); null stays null. */
function percentOf(value: unknown): unknown {
  return typeof value === "number" ? value / 100 : value;
}

function apiValue(record: Rec, column: string): unknown {
  if (column in record) return record[column];
  const alias = API_ALIASES[column];
  if (alias !== undefined && alias in record) return record[alias];
  throw new Error(
    `column ${column} is not a field of the API record: ${Object.keys(record).join(", ")}`,
  );
}

interface Compare {
  dataset?: Dataset;
  money?: Money;
  /** Units of columns outside a dataset's dictionary (RANKINGS' change_percent: percent). */
  units?: Readonly<Record<string, string>>;
  /** Cells not read straight from one API field. */
  special?: Readonly<Record<string, (r: Rec) => unknown>>;
}

/**
 * Header row keys -> API fields; every body row equals the expected values of exactly one API record
 * (matched by content, not position: `order` and the quarterly block layout arrange rows, and their
 * own tests check the arrangement). Counts the cells compared so a test cannot pass by comparing nothing.
 */
function compareTable(grid: Grid, records: readonly unknown[], opts: Compare = {}): number {
  const header = grid[0] as string[];
  expect(grid.length - 1).toBe(records.length);
  const wanted = records.map((rec) =>
    header.map((column) => {
      const r = rec as Rec;
      const unit =
        opts.units?.[column] ??
        (opts.dataset !== undefined
          ? scaleUnit(FIELD_DICTIONARY[opts.dataset].find((f) => f.key === column))
          : undefined);
      const special = opts.special?.[column];
      return special ? special(r) : expected(apiValue(r, column), column, unit, opts.money);
    }),
  );
  const unused = new Set(wanted.keys());
  let cells = 0;
  for (let i = 1; i < grid.length; i += 1) {
    const got = header.map((_, j) => raw(grid[i]?.[j]));
    let best: { index: number; misses: number[] } | undefined;
    for (const index of unused) {
      const misses = header.flatMap((_, j) => (got[j] === wanted[index]?.[j] ? [] : [j]));
      if (best === undefined || misses.length < best.misses.length) best = { index, misses };
      if (misses.length === 0) break;
    }
    if (best === undefined || best.misses.length > 0) {
      const j = best?.misses[0] ?? 0;
      const want = best === undefined ? undefined : wanted[best.index]?.[j];
      throw new Error(
        `row ${i} column ${header[j]}: cell ${JSON.stringify(got[j])}, nearest API record ${JSON.stringify(want)}`,
      );
    }
    unused.delete(best.index);
    cells += header.length;
  }
  expect(cells).toBeGreaterThan(0);
  return cells;
}

/** A client of its own (own cache) on the same sandbox: the reference answers. */
function referenceClient(h: Harness): KaishaClient {
  return createClient({
    baseUrl: "http://reference.test/v1",
    apiKey: DEMO_API_KEY,
    fetch: async (url, init) => {
      const u = new URL(url);
      return h.sandbox.app.request(`${u.pathname}${u.search}`, {
        method: init.method,
        headers: init.headers,
      });
    },
    ratePerMinute: 0,
    maxRetries: 0,
    cacheStore: new MemoryCacheStore(),
    sleep: async () => undefined,
  });
}

async function allPages<T>(iter: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of iter) out.push(page);
  return out;
}

describe.each([
  ["plain host", false],
  ["formatted numbers", true],
])("every cell equals the API value (%s)", (_name, dataTypes) => {
  let h: Harness;
  let api: KaishaClient;
  let edinet: string;
  beforeAll(async () => {
    h = useSandbox({ dataTypes });
    api = referenceClient(h);
    edinet = await resolveEdinetCode(api, "7203");
  });

  test.each(["annual", "quarterly", "semiannual"])(
    "FINANCIALS %s, every item, periods_down, in yen and in millions",
    async (period) => {
      const body = await api.financials({
        security_code: "7203",
        period: period as "annual",
        years: 5,
      });
      for (const unit of ["jpy", "million_jpy"] as const) {
        const grid = await call<Grid>(KAISHA.FINANCIALS, "7203", {
          items: "*",
          period,
          years: 5,
          unit,
          layout: "periods_down",
        });
        compareTable(grid, body.periods, { dataset: "financials", money: unit });
      }
    },
  );

  test("FINANCIALS items_down: item rows by period columns", async () => {
    const body = await api.financials({ security_code: "7203", period: "annual", years: 10 });
    const grid = await call<Grid>(KAISHA.FINANCIALS, "7203", {
      items: "*",
      unit: "hundred_million_jpy",
    });
    const items = FIELD_DICTIONARY.financials;
    expect(grid.length - 1).toBe(items.length);
    items.forEach((item, i) => {
      body.periods.forEach((p, j) => {
        const want = expected(
          (p as unknown as Rec)[item.key],
          item.key,
          scaleUnit(item),
          "hundred_million_jpy",
        );
        expect([item.key, j, raw(grid[i + 1]?.[j + 1])]).toEqual([item.key, j, want]);
      });
    });
  });

  test("FINANCIAL: every item of the latest year, in yen and in thousands", async () => {
    const body = await api.financials({ security_code: "7203", period: "annual", years: 30 });
    const latest = body.periods[body.periods.length - 1] as unknown as Rec;
    for (const item of FIELD_DICTIONARY.financials) {
      for (const unit of ["jpy", "thousand_jpy"] as const) {
        const cell = await call(KAISHA.FINANCIAL, "7203", { item: item.key, unit });
        expect([item.key, unit, raw(cell)]).toEqual([
          item.key,
          unit,
          expected(latest[item.key], item.key, scaleUnit(item), unit),
        ]);
      }
    }
  });

  test("VALUATION: every field of 50 years", async () => {
    const body = await api.valuations({ security_code: "7203", years: 50 });
    const grid = await call<Grid>(KAISHA.VALUATION, "7203", { fields: "*", years: 50 });
    compareTable(grid, body.history, { dataset: "valuations" });
    const avg = await call<Grid>(KAISHA.VALUATION, "7203", { fields: "per_5y_avg" });
    expect(raw(avg[0]?.[0])).toBe(expected(body.per_5y_avg, "per_5y_avg"));
  });

  test("PRICES every field over half a year, and PRICE of each field", async () => {
    const pages = await allPages(
      api.paginate("getPrices", { code: "7203", from: "2024-01-01", to: "2024-06-30", limit: 500 }),
    );
    const rows = pages.flatMap((p) => p.prices);
    const grid = await call<Grid>(KAISHA.PRICES, "7203", {
      from: "2024-01-01",
      to: "2024-06-30",
      fields: "*",
    });
    compareTable(grid, rows, { dataset: "prices" });
    const latest = (await api.prices({ code: "7203", limit: 1 })).prices[0] as unknown as Rec;
    for (const f of FIELD_DICTIONARY.prices) {
      expect([f.key, raw(await call(KAISHA.PRICE, "7203", { field: f.key }))]).toEqual([
        f.key,
        expected(latest[f.key], f.key),
      ]);
    }
  });

  test.each(["gainers", "losers", "volume"])("RANKINGS %s", async (metric) => {
    const body = await api.rankings({ metric: metric as "gainers", limit: 50 });
    const grid = await call<Grid>(KAISHA.RANKINGS, metric, { limit: 50 });
    // openapi.json RankingItem change_percent: "% vs previous close" (unit percent).
    compareTable(grid, body.items, { units: { change_percent: "percent" } });
  });

  test("SCREEN: codes, names and every referenced metric", async () => {
    const body = await api.screening({
      filters: "per:lte:15,equityRatio:gte:0.3",
      sort_by: "marketCap",
      limit: 50,
    });
    const grid = await call<Grid>(KAISHA.SCREEN, "per:lte:15,equity_ratio:gte:0.3", {
      sort_by: "時価総額",
      limit: 50,
    });
    expect(grid[0]).toEqual([
      "security_code",
      "edinet_code",
      "name",
      "per",
      "equityRatio",
      "marketCap",
    ]);
    const catalogue = (await api.screeningFields()).fields;
    const metric = (key: string) => (r: Rec) =>
      expected(
        (r["metrics"] as { field: string; value: number }[]).find((m) => m.field === key)?.value,
        key,
        catalogue.find((f) => f.key === key)?.unit ?? undefined,
      );
    compareTable(grid, body.securities, {
      special: {
        per: metric("per"),
        equityRatio: metric("equityRatio"),
        marketCap: metric("marketCap"),
      },
    });
  });

  test("SCREENFIELDS and SECURITIES", async () => {
    const fields = await api.screeningFields();
    compareTable(await call<Grid>(KAISHA.SCREENFIELDS, 1), fields.fields, {
      special: { note: (r) => expected(r["note"], "note") }, // optional in ScreeningField
    });
    const list = await api.securities({ q: "1", limit: 100 });
    compareTable(await call<Grid>(KAISHA.SECURITIES, "1"), list.securities);
  });

  test.each([
    ["annual", "annual"],
    ["quarter", "quarterly"],
  ] as const)("SEGMENTS %s in millions", async (period, typed) => {
    const body = await api.segments({ edinet_code: edinet, period });
    const grid = await call<Grid>(KAISHA.SEGMENTS, "7203", { period: typed, unit: "million_jpy" });
    compareTable(grid, body.segments, { dataset: "segments", money: "million_jpy" });
  });

  test("DIVIDENDS with the source of every year", async () => {
    const body = await api.dividends({ edinet_code: edinet });
    type Ref = { doc_id: string; source: string };
    const refs = (r: Rec) => r["source_refs"] as Ref[];
    const primary = (r: Rec) => refs(r).find((s) => s.source === "edinet") ?? refs(r)[0];
    compareTable(await call<Grid>(KAISHA.DIVIDENDS, "7203"), body.records, {
      dataset: "dividends",
      special: {
        doc_id: (r) => primary(r)?.doc_id ?? "",
        source: (r) => primary(r)?.source ?? "",
        source_refs: (r) =>
          refs(r)
            .map((s) => `${s.doc_id} (${s.source})`)
            .join(", "),
      },
    });
  });

  test("PEERS", async () => {
    const body = await api.peers({ security_code: "7203", limit: 20 });
    compareTable(await call<Grid>(KAISHA.PEERS, "7203", { limit: 20 }), body.peers, {
      special: {
        parent_companies: (r) =>
          (r["parent_companies"] as { name: string }[]).map((p) => p.name).join(", "),
      },
    });
  });

  test("DISCLOSURES, DOCUMENT meta / xbrl / available_sections, XBRL", async () => {
    const list = await api.securityDisclosures({ code: "7203", limit: 50 });
    compareTable(await call<Grid>(KAISHA.DISCLOSURES, "7203"), list.disclosures);
    const annual = list.disclosures.find((d) => d.document_type?.startsWith("有価証券報告書"));
    const docId = annual?.doc_id as string;
    const doc = await api.disclosure({ doc_id: docId });
    compareTable(await call<Grid>(KAISHA.DOCUMENT, docId), [doc.meta]);
    const day = /^\d{4}-\d{2}-\d{2}$/;
    compareTable(await call<Grid>(KAISHA.DOCUMENT, docId, { part: "xbrl" }), doc.xbrl_facts ?? [], {
      special: {
        period: (r) => {
          const p = r["period"] as string | null;
          return p === null ? "" : isoToSerial(p.split("/").pop() as string);
        },
        period_start: (r) => {
          const p = r["period"] as string | null;
          return p?.includes("/") ? isoToSerial(p.split("/")[0] as string) : "";
        },
        value: (r) =>
          typeof r["value"] === "string" && day.test(r["value"])
            ? isoToSerial(r["value"])
            : r["value"],
      },
    });
    compareTable(
      await call<Grid>(KAISHA.DOCUMENT, docId, { part: "available_sections" }),
      (doc.available_sections ?? []).map((section_id) => ({ section_id })),
    );
    const fact = (doc.xbrl_facts ?? []).find((f) => typeof f.value === "number");
    expect(
      raw(await call(KAISHA.XBRL, docId, { element: fact?.element_name, context: fact?.context })),
    ).toBe(fact?.value);
  });

  test("OFFICERS, PERSON, APPOINTMENTS, COMPENSATION", async () => {
    const officers = await api.officers({ code: "7203" });
    compareTable(await call<Grid>(KAISHA.OFFICERS, "7203"), officers.officers);
    const id = officers.officers[0]?.person_id as string;
    const person = await api.person({ id });
    const base = { person_id: person.person_id, name: person.name, birth_date: person.birth_date };
    const rows =
      person.current_appointments.length === 0
        ? [
            {
              ...base,
              security_code: null,
              security_name: null,
              role: null,
              position: null,
              is_outside: null,
              first_valid_from: null,
              tenure_years: null,
            },
          ]
        : person.current_appointments.map((a) => ({ ...base, ...a }));
    compareTable(await call<Grid>(KAISHA.PERSON, id), rows);
    const appointments = await api.personAppointments({ id });
    compareTable(await call<Grid>(KAISHA.APPOINTMENTS, id), appointments.appointments);
    // A person with compensation history: the highest-paid officer of the sample data.
    for (const officer of officers.officers) {
      const comp = await api.personCompensation({ id: officer.person_id });
      const flat = comp.companies.flatMap((c) =>
        c.history.map((row) => ({
          security_code: c.security_code,
          company_name: c.company_name,
          ...row,
        })),
      );
      if (flat.length === 0) continue;
      compareTable(await call<Grid>(KAISHA.COMPENSATION, officer.person_id), flat);
      return;
    }
    throw new Error("no officer of 7203 has compensation history in the sample data");
  });

  test("COMPANY (plain host: a one-row table; rich host: the card's properties) and ATTRIBUTION", async () => {
    const org = await api.organization({ edinet_code: edinet });
    const fin = await api.financials({ security_code: "7203", period: "annual", years: 30 });
    const val = await api.valuations({ security_code: "7203", years: 50 });
    const listing = (await api.securities({ q: "7203", limit: 20 })).securities.find(
      (s) => s.code === "7203",
    );
    const f = fin.periods[fin.periods.length - 1] as unknown as Rec;
    const v = val.history[0] as unknown as Rec;
    const want: Rec = {
      name: org.name_ja,
      security_code: "7203",
      edinet_code: edinet,
      market: listing?.market,
      industry: listing?.industry,
      address_ja: org.address_ja,
      fiscal_year: v["fiscal_year"],
      market_cap: v["market_cap"],
      per: v["per"],
      pbr_adjusted: v["pbr_adjusted"],
      // getValuations dividend_yield_adjusted and roe are `percent`: the card holds api / 100.
      dividend_yield_adjusted: percentOf(v["dividend_yield_adjusted"]),
      roe: percentOf(v["roe"] ?? v["roe_computed"]),
      sales: f["sales"],
      operating_profit: f["operating_profit"],
      net_income: f["net_income"],
      source_label: org.attribution.source_label,
    };
    const grid = await call<Grid>(KAISHA.COMPANY, "7203");
    if (dataTypes) {
      const card = grid[0]?.[0] as { properties: Record<string, { basicValue: unknown }> };
      for (const [key, value] of Object.entries(want)) {
        // A card leaves null properties out rather than show a false zero.
        expect([key, card.properties[key]?.basicValue]).toEqual([key, value ?? undefined]);
      }
    } else {
      compareTable(grid, [want]);
    }
    for (const [dataset, body] of [
      ["financials", fin],
      ["valuations", val],
    ] as const) {
      expect(await call<Grid>(KAISHA.ATTRIBUTION, dataset)).toEqual([
        [body.attribution.source_label, body.attribution.license_note],
      ]);
    }
  });

  test("MARGIN 26w and 52w, JSFMARGIN days / reverse / other_exchange_reverse", async () => {
    for (const period of ["26w", "52w"] as const) {
      const body = await api.weeklyMargin({ code: "7203", period });
      compareTable(await call<Grid>(KAISHA.MARGIN, "7203", { period }), body.weeks, {
        dataset: "margin",
      });
    }
    let compared = 0;
    const listed = (await api.securities({ limit: 30 })).securities.filter(
      (s) => s.market !== null,
    );
    for (const code of ["7203", ...listed.map((s) => s.code).slice(0, 8)]) {
      const body = await api.jsfMarginDaily({ code, period: "1y" }).catch(() => undefined);
      if (body === undefined) continue; // not every security has securities-finance data
      for (const table of ["days", "reverse", "other_exchange_reverse"] as const) {
        if (body[table].length === 0) continue;
        compared += compareTable(await call<Grid>(KAISHA.JSFMARGIN, code, { table }), body[table], {
          dataset: "jsf",
        });
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});
