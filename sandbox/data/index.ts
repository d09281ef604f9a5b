// Entry of the sandbox's deterministic sample dataset: getDataset() builds every table once, from seeds only.
import type { components } from "../../src/contract/generated/api-types";
import { addDays, toDayNumber, tradingDays } from "./calendar";
import {
  buildCorporations,
  buildSecurities,
  companySpecs,
  ETFS,
  SECOND_CLASS,
  type CompanySpec,
} from "./companies";
import { planDisclosures } from "./disclosure-plan";
import { buildDisclosures } from "./disclosures";
import { generateDividends } from "./dividends";
import { generateFinancials, type CompanyFinancials } from "./financials";
import { DATA_DATE } from "./fiscal-periods";
import { generateJsf } from "./jsf";
import { generateWeeklyMargin } from "./margin";
import { marketNoise } from "./market";
import type {
  CorporationRecord,
  Dataset,
  DatasetTables,
  JsfRecord,
  SegmentRecord,
  WeeklyMarginRecord,
} from "./model";
import { generateOfficers } from "./officers";
import { generatePeers } from "./peers";
import { generatePrices, type PriceInput } from "./prices";
import { metricsFromTables, SCREENING_FIELDS } from "./screening-metrics";
import { generateSegments } from "./segments";
import { readTablesFile } from "./tables-file";
import { fillFinancialPer, generateValuations, labelEnd } from "./valuations";

export * from "./model";

type S = components["schemas"];

/** First trading day of the price history (openapi.json getPrices: no data before 2005-01-01). */
const PRICE_HISTORY_FROM = "2005-01-04";

/** Units outstanding of the ETFs (volumes and lending balances scale with them). */
const ETF_UNITS: Record<string, number> = { "1306": 6_200_000_000, "1321": 420_000_000 };
/** Shares of the non-primary second share class. */
const SECOND_CLASS_SHARES = 34_246_000;

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

/** Earnings multiple the market pays for the trailing three-year average EPS. */
const FAIR_PER = 16;

/**
 * Current-basis fair price path, interpolated between fiscal year ends: the geometric mean of book
 * value times the company's usual PBR and trailing average earnings times FAIR_PER, so a company
 * with a high PBR but thin returns does not trade at a PER of 100+ (book value alone when earnings
 * are not positive, clamped to 0.4-1.5 times the book-based value).
 */
function bookAnchor(fin: CompanyFinancials): (date: string) => number {
  const pbr = fin.spec.pbr * 1.3;
  const rows = fin.annual.filter(
    (r) => r.bps_computed_adjusted !== null && r.bps_computed_adjusted > 0,
  );
  const pts = rows.map((r, i) => {
    const book = (r.bps_computed_adjusted as number) * pbr;
    const eps = rows
      .slice(math.max(0, i - 2), i + 1)
      .map((x) => x.eps_computed_adjusted)
      .filter((x): x is number => x !== null);
    const meanEps = eps.length === 0 ? 0 : eps.reduce((a, b) => a + b, 0) / eps.length;
    const blended =
      meanEps > 0
        ? math.min(1.5 * book, math.max(0.4 * book, math.sqrt(book * meanEps * FAIR_PER)))
        : book;
    return [toDayNumber(labelEnd(r.fiscal_year)), blended / pbr] as const;
  });
  return (date: string): number => {
    const d = toDayNumber(date);
    const first = pts[0];
    if (!first) return fin.spec.price2005;
    if (d <= first[0]) return first[1] * pbr;
    for (let i = 1; i < pts.length; i += 1) {
      const [d1, v1] = pts[i] as readonly [number, number];
      const [d0, v0] = pts[i - 1] as readonly [number, number];
      if (d <= d1) return (v0 + ((v1 - v0) * (d - d0)) / (d1 - d0)) * pbr;
    }
    return (pts[pts.length - 1] as readonly [number, number])[1] * pbr;
  };
}

function priceInputFor(spec: CompanySpec, fin: CompanyFinancials): PriceInput {
  const input: PriceInput = {
    code: spec.code,
    listedFrom: spec.listedFrom,
    events: spec.events,
    shares: fin.currentShares,
    vol: spec.vol,
    anchor: bookAnchor(fin),
    illiquid: spec.traits.has("illiquid"),
    unitLot: spec.industry === "REIT" ? 1 : 100,
  };
  // A stop-high and a stop-low on the latest trading day (rankings stop-high / stop-low).
  if (spec.code === "4592") input.lastDayLimit = 1;
  if (spec.code === "2975") input.lastDayLimit = -1;
  return input;
}

/** The dataset's tables, generated from seeds: data only (sandbox/data/tables-file.ts writes them). */
export function generateTables(): DatasetTables {
  const specs = companySpecs();
  const securities = buildSecurities();
  const corporations = buildCorporations();
  const finList = specs.map(generateFinancials);
  const finByCode = new Map(finList.map((f) => [f.spec.code, f]));

  const days = tradingDays(PRICE_HISTORY_FROM, addDays(DATA_DATE, -1));
  const noise = marketNoise(days);
  const prices = new Map<string, S["SecurityDailyPrice"][]>();
  for (const fin of finList)
    prices.set(fin.spec.code, generatePrices(priceInputFor(fin.spec, fin), days, noise));
  for (const etf of ETFS) {
    const units = ETF_UNITS[etf.code] ?? 1e9;
    prices.set(
      etf.code,
      generatePrices(
        {
          code: etf.code,
          listedFrom: PRICE_HISTORY_FROM,
          events: [],
          shares: units,
          vol: etf.vol * 0.3,
          anchor: () => etf.price2005 * 1.3,
          illiquid: false,
          unitLot: 10,
        },
        days,
        noise,
      ),
    );
  }
  prices.set(
    SECOND_CLASS.code,
    generatePrices(
      {
        code: SECOND_CLASS.code,
        listedFrom: "2007-09-03",
        events: [],
        shares: SECOND_CLASS_SHARES,
        vol: 0.008,
        anchor: () => 1500,
        illiquid: false,
        unitLot: 100,
      },
      days,
      noise,
    ),
  );

  const valuations = new Map<
    string,
    { history: S["ValuationHistoryPoint"][]; per_5y_avg: number | null }
  >();
  for (const fin of finList) {
    const p = prices.get(fin.spec.code) ?? [];
    fillFinancialPer(fin, p);
    valuations.set(fin.spec.code, generateValuations(fin, p));
  }

  const plan = planDisclosures(finList);
  const disclosures = buildDisclosures(plan, finByCode);
  const dividends = new Map<string, S["DividendRecord"][]>();
  const segments = new Map<string, { annual: SegmentRecord[]; quarter: SegmentRecord[] }>();
  const financials = new Map<
    string,
    {
      annual: S["FinancialsPeriod"][];
      quarterly: S["FinancialsPeriod"][];
      semiannual: S["FinancialsPeriod"][];
    }
  >();
  for (const fin of finList) {
    financials.set(fin.spec.edinet, {
      annual: fin.annual,
      quarterly: fin.quarterly,
      semiannual: fin.semiannual,
    });
    dividends.set(fin.spec.edinet, generateDividends(fin, plan));
    segments.set(fin.spec.edinet, generateSegments(fin, plan));
  }

  const { officers, persons } = generateOfficers(specs);
  const peers = generatePeers(specs);

  const weeklyMargin = new Map<string, WeeklyMarginRecord>();
  const jsf = new Map<string, JsfRecord>();
  for (const sec of securities) {
    const fin = finByCode.get(sec.code);
    const shares = fin?.currentShares ?? ETF_UNITS[sec.code] ?? SECOND_CLASS_SHARES;
    const events = fin?.spec.events ?? [];
    const p = prices.get(sec.code) ?? [];
    // Weekly margin is XTKS only; the second share class has no margin trading.
    if (sec.is_primary && sec.listed_on.includes("XTKS")) {
      weeklyMargin.set(
        sec.code,
        generateWeeklyMargin(
          {
            code: sec.code,
            events,
            shares,
            undeterminable: fin?.spec.traits.has("margin-undeterminable") ?? false,
            listedFrom: fin?.spec.listedFrom ?? PRICE_HISTORY_FROM,
          },
          p,
        ),
      );
    }
    // Securities-finance lending covers loan-eligible issues: not the second class nor the newest IPO.
    if (sec.is_primary && sec.code !== "130A") {
      jsf.set(
        sec.code,
        generateJsf(
          { code: sec.code, exchange: sec.exchange, listedOn: sec.listed_on, events, shares },
          days,
        ),
      );
    }
  }

  return {
    securities,
    corporations,
    financials,
    prices,
    valuations,
    dividends,
    segments,
    disclosures,
    officers,
    persons,
    peers,
    weeklyMargin,
    jsf,
    screeningFields: SCREENING_FIELDS,
    metricInputs: new Map(
      finList.map((f) => [f.spec.code, { edinet: f.spec.edinet, events: f.spec.events }]),
    ),
  };
}

/** The dataset over its tables: the tables plus screeningMetrics, computed from them on demand. */
function withScreeningMetrics(tables: DatasetTables): Dataset {
  // The tables' properties copied as they are, not read: a file's tables are each read on first
  // use (tables-file.ts), and a spread would read them all.
  const dataset = Object.defineProperties({}, Object.getOwnPropertyDescriptors(tables)) as Dataset;
  dataset.screeningMetrics = (code, asOf, resultsPublic) =>
    metricsFromTables(tables, code, asOf, resultsPublic);
  return dataset;
}

let cached: Dataset | undefined;

/** The dataset, generated on first use and then shared (deterministic: seeded PRNG, fixed data clock). */
export function getDataset(): Dataset {
  cached ??= withScreeningMetrics(readTablesFile() ?? generateTables());
  return cached;
}

/**
 * Drops the shared dataset; the next use generates it again (the same, deterministic). For the
 * benchmark: after it has learned the facts it needs, the sandbox's data should not sit in the
 * heap it measures for the add-in (its Models ask a sandbox on a worker thread).
 */
export function forgetDataset(): void {
  cached = undefined;
}

/**
 * openapi.json info.description: resolve a security code to its corporation, only through the
 * primary listed security. Returns null for unknown codes, non-primary share classes and securities
 * without a statutory filer.
 */
export function resolveCorporation(dataset: Dataset, code: string): CorporationRecord | null {
  const sec = dataset.securities.find((s) => s.code === code);
  if (!sec || !sec.is_primary || sec.edinet_code === null) return null;
  return dataset.corporations.get(sec.edinet_code) ?? null;
}
