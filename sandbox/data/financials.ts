// Financial statements of each sample company: quarterly flows, fiscal-year balances, and the annual,
// quarterly and semiannual FinancialsPeriod rows (openapi.json FinancialsPeriod, getFinancials)
// built from them.
import type { components } from "../../src/contract/generated/api-types";
import type { CompanySpec, Standard } from "./companies";
import { shareFactor } from "./companies";
import { fiscalPeriods, type PeriodDef, type QuarterDef } from "./fiscal-periods";
import { emptyFinancialsRow } from "./financials-row";
import { Prng, round } from "./prng";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type FinancialsPeriod = components["schemas"]["FinancialsPeriod"];
type Quarter = FinancialsPeriod["quarter"];

/** Flow items summed over quarters (integers, yen). */
const FLOW_KEYS = [
  "sales",
  "cost_of_sales",
  "gross_profit",
  "sga",
  "rd_expenses",
  "operating_profit",
  "non_operating_income",
  "non_operating_expenses",
  "ordinary_income",
  "extraordinary_income",
  "extraordinary_loss",
  "financial_income",
  "financial_expenses",
  "interest_income",
  "interest_expenses",
  "income_before_tax",
  "income_taxes",
  "net_income",
  "comprehensive_income",
  "ebit",
  "ebitda",
  "depreciation",
  "operating_cf",
  "investing_cf",
  "financing_cf",
  "capital_expenditure",
  "dividends_paid_cf",
  "fcf",
  "treasury_stock_purchase_cf",
  "treasury_stock_disposal_cf",
  "treasury_stock_net_cf",
] as const;
type FlowKey = (typeof FLOW_KEYS)[number];
type Flows = Record<FlowKey, number> & { minority: number; oci: number };

/**
 * Cash-flow items a semiannual-only discloser leaves null on single quarters (openapi.json
 * getFinancials).
 */
const CF_KEYS: readonly FlowKey[] = [
  "operating_cf",
  "investing_cf",
  "financing_cf",
  "capital_expenditure",
  "dividends_paid_cf",
  "fcf",
  "treasury_stock_purchase_cf",
  "treasury_stock_disposal_cf",
  "treasury_stock_net_cf",
];

/** openapi.json FinancialsPeriod: `*` items exist only under J-GAAP. */
const JGAAP_ONLY_KEYS = [
  "ordinary_income",
  "extraordinary_income",
  "extraordinary_loss",
  "non_operating_expenses",
  "non_operating_income",
] as const;

/** Parent-only items reported inside consolidated periods: the usual scope exceptions. */
const PARENT_ONLY_KEYS = [
  "average_age",
  "average_annual_salary",
  "average_years_of_service",
  "number_of_employees_parent",
  "temporary_employees_parent",
];

/** Every value key of FinancialsPeriod, in schema order. */
// prettier-ignore
type ValueKey =
  "sales" | "operating_profit" | "ordinary_income" | "net_income" | "extraordinary_income" |
  "extraordinary_loss" | "comprehensive_income" | "cost_of_sales" | "ebit" | "ebitda" |
  "financial_expenses" | "financial_income" | "gross_profit" | "income_before_tax" | "income_taxes"
  | "interest_expenses" | "interest_income" | "non_operating_expenses" | "non_operating_income" |
  "rd_expenses" | "sga" | "aoci" | "buildings_and_structures" | "capital_stock" | "capital_surplus"
  | "cash_and_deposits_bs" | "current_assets" | "current_liabilities" |
  "gain_on_disposal_of_treasury_stock" | "goodwill" | "intangible_assets" | "interest_bearing_debt"
  | "inventories" | "inventories_incl_re" | "investment_securities" | "investments_and_other_assets"
  | "land" | "long_term_borrowings" | "net_assets" | "non_controlling_interests" |
  "noncurrent_assets" | "noncurrent_liabilities" | "owners_equity" | "ppe" | "retained_earnings" |
  "securities" | "shareholders_equity" | "short_term_borrowings" | "total_assets" |
  "total_liabilities" | "trade_payable" | "trade_receivable" | "treasury_stock_amount" |
  "working_capital" | "operating_cf" | "investing_cf" | "financing_cf" | "capital_expenditure" |
  "cash_and_equivalents" | "depreciation" | "dividends_paid_cf" | "fcf" |
  "treasury_stock_disposal_cf" | "treasury_stock_net_cf" | "treasury_stock_purchase_cf" |
  "average_shares" | "shares_outstanding" | "treasury_shares" | "eps" | "diluted_eps" | "dps" |
  "dps_q2" | "dps_year_end" | "bps" | "eps_computed" | "bps_computed" | "eps_computed_adjusted" |
  "eps_adjusted" | "diluted_eps_adjusted" | "bps_computed_adjusted" | "bps_adjusted" |
  "dps_adjusted" | "dps_q2_adjusted" | "dps_year_end_adjusted" | "payout_ratio" | "equity_ratio" |
  "per" | "roe" | "roe_computed" | "total_dividends" | "average_age" | "average_years_of_service" |
  "average_annual_salary" | "auditors_remuneration" | "directors_remuneration" |
  "outside_officers_remuneration" | "number_of_employees" | "number_of_employees_parent" |
  "temporary_employees" | "temporary_employees_parent" | "number_of_female_directors" | "ghg_scope1"
  | "ghg_scope1_2_3" | "ghg_scope1_and_2" | "ghg_scope2" | "ghg_scope3" |
  "ratio_of_female_directors" | "ratio_of_female_managers" |
  "ratio_of_male_employees_taking_childcare_leave" | "wage_gap_all_employees" |
  "wage_gap_non_regular_employees" | "wage_gap_regular_employees";
type Values = Record<ValueKey, number | null>;

/** Fiscal-year facts other generators need besides the rows. */
interface FiscalYearFacts {
  period: PeriodDef;
  /** Current-basis shares outstanding net of treasury at year end. */
  sharesCurrentBasis: number;
  /** Adjusted (current basis) DPS for the year, 0 when none. */
  dpsAdjusted: number;
}

export interface CompanyFinancials {
  spec: CompanySpec;
  periods: PeriodDef[];
  quarters: QuarterDef[];
  annual: FinancialsPeriod[];
  quarterly: FinancialsPeriod[];
  semiannual: FinancialsPeriod[];
  /** Facts by fiscal label (YYYY/MM), real fiscal periods including transitional ones. */
  facts: Map<string, FiscalYearFacts>;
  /** Current-basis issued shares (the share count the market cap uses today). */
  currentShares: number;
}

/** Business-cycle shock (0 = none) at a point in time, by company traits (2008 crisis, 2020 pandemic). */
function shock(spec: CompanySpec, t: number): number {
  const tri = (start: number, peak: number, end: number): number =>
    t <= start || t >= end
      ? 0
      : t <= peak
        ? (t - start) / (peak - start)
        : (end - t) / (end - peak);
  const cyclical = spec.traits.has("cyclical");
  const covid = spec.traits.has("covid-hit");
  let s = tri(2008.6, 2009.3, 2010.3) * (cyclical ? 0.32 : 0.14);
  s += tri(2011.15, 2011.3, 2011.7) * 0.04;
  s += tri(2020.1, 2020.45, covid ? 2022.9 : 2021.3) * (covid ? 0.55 : 0.08);
  if (cyclical) s += math.max(0, math.sin((t - 2005) * 1.25)) * 0.1;
  return s;
}

function standardFor(spec: CompanySpec, year: number): Standard {
  return spec.previousStandard && spec.switchYear !== undefined && year < spec.switchYear
    ? spec.previousStandard
    : spec.standard;
}

function quarterFlows(
  spec: CompanySpec,
  quarters: QuarterDef[],
  fyIndexOfQuarter: number[],
  rng: Prng,
): Flows[] {
  const yearNoise: number[] = [];
  let ar = 0;
  for (let i = 0; i <= (fyIndexOfQuarter[fyIndexOfQuarter.length - 1] ?? 0); i += 1) {
    ar = 0.6 * ar + rng.normal() * 0.018;
    yearNoise.push(ar);
  }
  const base = (spec.salesOku * 1e8) / 4;
  const season = [0.95, 1.0, 0.99, 1.06];
  const rdShare =
    spec.industry === "医薬品"
      ? 0.55
      : spec.industry === "電気機器" || spec.industry === "精密機器"
        ? 0.25
        : spec.industry === "輸送用機器" || spec.industry === "化学"
          ? 0.2
          : 0.05;
  const depRatio = ["陸運業", "電気・ガス業", "情報・通信業", "空運業", "海運業"].includes(
    spec.industry,
  )
    ? 0.11
    : 0.04;
  const isJ = (y: number): boolean => standardFor(spec, y) === "J-GAAP";
  return quarters.map((q, i) => {
    const t = q.year + (q.month - 0.5) / 12;
    const fyi = fyIndexOfQuarter[i] ?? 0;
    const s = shock(spec, t);
    const trend = math.pow(1 + spec.growth, t - (spec.firstFiscalYear - 0.5));
    const sales = math.round(
      base * trend * (1 - s) * (season[i % 4] ?? 1) * (1 + rng.normal() * 0.015),
    );
    let lossExtra = 0;
    if (spec.traits.has("loss-maker")) {
      const turn = spec.code === "4592" ? 2022 : 2021;
      lossExtra = math.max(0, (0.9 * (turn - t)) / 8);
    }
    const gm = math.min(0.92, math.max(0.03, spec.grossMargin + (yearNoise[fyi] ?? 0) - s * 0.35));
    const cost_of_sales = math.round(sales * (1 - gm));
    const gross_profit = sales - cost_of_sales;
    const sga = math.round(sales * (spec.sgaRatio * (1 + s * 0.4) + lossExtra));
    const rd_expenses = math.round(sga * rdShare);
    const operating_profit = gross_profit - sga;
    const j = isJ(q.year);
    const non_operating_income = j ? math.round(sales * 0.006) : 0;
    const non_operating_expenses = j ? math.round(sales * 0.004) : 0;
    const ordinary_income = operating_profit + non_operating_income - non_operating_expenses;
    const extraordinary_income = j ? math.round(sales * 0.002 * rng.next()) : 0;
    const extraordinary_loss = j ? math.round(sales * (0.003 * rng.next() + s * 0.06)) : 0;
    const financial_income = math.round(sales * 0.004);
    const financial_expenses = math.round(sales * 0.003);
    const interest_income = math.round(financial_income * 0.6);
    const interest_expenses = math.round(financial_expenses * 0.8);
    const income_before_tax = j
      ? ordinary_income + extraordinary_income - extraordinary_loss
      : operating_profit + financial_income - financial_expenses - math.round(sales * s * 0.05);
    const income_taxes =
      income_before_tax > 0 ? math.round(income_before_tax * 0.3) : math.round(sales * 0.001);
    const minority = spec.consolidated ? math.round((income_before_tax - income_taxes) * 0.03) : 0;
    const net_income = income_before_tax - income_taxes - minority;
    const oci = math.round(sales * 0.01 * rng.normal());
    const depreciation = math.round(sales * depRatio);
    const ebit = income_before_tax + interest_expenses;
    const capital_expenditure = math.round(depreciation * (1.1 + 0.2 * rng.normal()));
    const operating_cf =
      net_income + minority + depreciation + math.round(sales * 0.02 * rng.normal());
    const investing_cf = -capital_expenditure - math.round(sales * 0.006 * rng.next());
    return {
      sales, cost_of_sales, gross_profit, sga, rd_expenses, operating_profit,
      non_operating_income, non_operating_expenses, ordinary_income, extraordinary_income,
      extraordinary_loss, financial_income, financial_expenses, interest_income, interest_expenses,
      income_before_tax, income_taxes, net_income, minority, oci,
      comprehensive_income: net_income + minority + oci,
      ebit, ebitda: ebit + depreciation, depreciation, operating_cf, investing_cf,
      financing_cf: 0, capital_expenditure, dividends_paid_cf: 0, fcf: operating_cf + investing_cf,
      treasury_stock_purchase_cf: 0, treasury_stock_disposal_cf: 0, treasury_stock_net_cf: 0,
    }; // prettier-ignore
  });
}

function sumFlows(list: Flows[]): Flows {
  const out = { minority: 0, oci: 0 } as Flows;
  for (const k of FLOW_KEYS) out[k] = 0;
  for (const f of list) {
    for (const k of FLOW_KEYS) out[k] += f[k];
    out.minority += f.minority;
    out.oci += f.oci;
  }
  return out;
}

interface Balance {
  oe: number;
  aoci: number;
  capitalStock: number;
  capitalSurplus: number;
  treasuryAmount: number;
  values: Partial<Values>;
}

interface YearState {
  period: PeriodDef;
  flows: Flows | null;
  balance: Balance;
  sharesReported: number | null;
  treasuryShares: number | null;
  averageShares: number | null;
  factor: number;
  dpsQ2Adj: number;
  dpsYeAdj: number;
  dpsQ2: number | null;
  dpsYe: number | null;
  dps: number | null;
  totalDividends: number;
  oePrev: number;
}

function equityToSales(spec: CompanySpec): number {
  if (spec.industry === "REIT") return 6;
  if (spec.industry === "銀行業") return 1.4;
  if (["不動産業", "保険業", "その他金融業", "証券、商品先物取引業"].includes(spec.industry))
    return 0.9;
  if (spec.traits.has("loss-maker")) return 3;
  return 0.35;
}

function equityRatioTarget(spec: CompanySpec): number {
  const map: Record<string, number> = {
    銀行業: 0.05, 保険業: 0.1, "証券、商品先物取引業": 0.06, その他金融業: 0.15, 不動産業: 0.3,
    REIT: 0.5, 卸売業: 0.32, "電気・ガス業": 0.25, 空運業: 0.35,
  }; // prettier-ignore
  return map[spec.industry] ?? 0.45;
}

/** Step for adjusted DPS so that reported DPS stays whole yen across consolidations. */
function dpsStep(spec: CompanySpec): number {
  let minF = 1;
  for (const e of spec.events) minF = math.min(minF, e.ratio);
  return minF < 1 ? 1 / minF : 1;
}

function roundStep(v: number, step: number): number {
  return math.round(v / step) * step;
}

/** The year (label year) where 3101's share basis cannot be verified and no dividend was paid. */
const UNVERIFIABLE_YEAR = 2012;

export function generateFinancials(spec: CompanySpec): CompanyFinancials {
  const rng = new Prng(`financials:${spec.code}`);
  const { periods, quarters } = fiscalPeriods(spec);
  const fyIndexOfQuarter: number[] = [];
  periods.forEach((p, idx) => {
    for (let q = 0; q < p.publishedQuarters; q += 1) fyIndexOfQuarter.push(idx);
  });
  const flows = quarterFlows(spec, quarters, fyIndexOfQuarter, rng);

  const firstSales = periods[0] ? sumFlows(flows.slice(0, 4)).sales : spec.salesOku * 1e8;
  const oe0 = math.round(firstSales * equityToSales(spec));
  // Share count fixed by the price level the company had in its first year (current basis).
  const currentShares = math.max(
    10_000,
    math.round((oe0 * spec.pbr) / spec.price2005 / 1000) * 1000,
  );
  const tsBase = 0.01 + (Number.parseInt(spec.edinet.slice(2), 10) % 6) / 100;
  const step = dpsStep(spec);
  const erTarget = equityRatioTarget(spec);
  const nciRatio = spec.consolidated ? 0.06 : 0;

  const states: YearState[] = [];
  let oe = oe0;
  let aoci = math.round(oe0 * 0.05);
  const capitalStock = math.round(oe0 * 0.15);
  const capitalSurplus = math.round(oe0 * 0.12);
  let treasuryAmount = 0;
  let prevDpsAdj = 0;
  let everPaid = false;
  let cutUntil = 0;

  for (const p of periods) {
    if (!p.complete) break;
    const yearFlows = sumFlows(flows.slice(p.firstQuarter, p.firstQuarter + p.quarterCount));
    const yearsIn = p.year - 2005 + (p.month - 3) / 12;
    const ts = tsBase + (spec.code.charCodeAt(3) % 4 === 0 ? math.max(0, yearsIn) * 0.002 : 0);
    const factor = shareFactor(spec.events, p.end);
    const netShares = math.round(currentShares * (1 - ts));
    const epsAdj = yearFlows.net_income / netShares;
    // Dividend policy on the current share basis: progressive, cut to zero on big losses.
    const scale = p.quarterCount / 4;
    let dpsAdj: number;
    const target = math.max(0, spec.payout * epsAdj);
    if (spec.traits.has("loss-maker") || (spec.traits.has("dividend-starter") && p.year < 2023)) {
      dpsAdj = 0;
    } else if (spec.traits.has("unverifiable-year") && p.year >= 2010 && p.year <= 2013) {
      dpsAdj = 0; // 3101: no dividend 2010-2013 (cut, then resumed)
    } else if (
      yearFlows.net_income < 0 &&
      (spec.traits.has("covid-hit") || spec.traits.has("cyclical"))
    ) {
      dpsAdj = 0;
      cutUntil = p.year + 1;
    } else if (p.year <= cutUntil && prevDpsAdj === 0 && everPaid) {
      dpsAdj = 0;
    } else if (prevDpsAdj === 0) {
      dpsAdj = roundStep(target * scale, step);
    } else if (target >= prevDpsAdj * 1.03) {
      dpsAdj = roundStep(math.min(target, prevDpsAdj * 1.5) * scale, step);
    } else if (target >= prevDpsAdj * 0.6) {
      dpsAdj = roundStep(prevDpsAdj * scale, step);
    } else {
      dpsAdj = roundStep(math.max(target, prevDpsAdj * 0.5) * scale, step);
    }
    if (dpsAdj < 0) dpsAdj = 0;
    if (dpsAdj > 0) everPaid = true;
    const smallCap = spec.market === "Growth" || spec.salesOku < 200;
    const dpsQ2Adj = smallCap || p.quarterCount < 4 ? 0 : roundStep(dpsAdj / 2, step);
    const dpsYeAdj = dpsAdj - dpsQ2Adj;
    const h1End = quarters[p.firstQuarter + 1]?.end ?? p.end;
    const fQ2 = shareFactor(spec.events, h1End);
    const dpsQ2 = round(dpsQ2Adj * fQ2, 2);
    const dpsYe = round(dpsYeAdj * factor, 2);
    // A split between the record dates mixes two bases: the filing shows no annual total.
    const dps = fQ2 === factor ? round(dpsQ2 + dpsYe, 2) : null;
    const totalDividends = math.round(dpsAdj * netShares);
    const prevTotal = states[states.length - 1]?.totalDividends ?? math.round(totalDividends * 0.9);
    const dividendsPaid = math.round(prevTotal * 0.5 + totalDividends * 0.5);
    // Buybacks: companies whose treasury ratio grows buy back stock every year.
    const treasuryTarget = math.round(oe * ts * 0.8);
    const buyback = math.max(0, treasuryTarget - treasuryAmount);
    const disposal = math.round(treasuryAmount * 0.01);
    // Spread financing flows over the year's quarters (dividends in the first and third).
    const qs = flows.slice(p.firstQuarter, p.firstQuarter + p.quarterCount);
    const debtChange = math.round(yearFlows.sales * 0.01 * rng.normal());
    qs.forEach((f, qi) => {
      const divShare = qs.length >= 3 ? (qi === 0 || qi === 2 ? 0.5 : 0) : 1 / qs.length;
      f.dividends_paid_cf = -math.round(dividendsPaid * divShare);
      f.treasury_stock_purchase_cf = qi === qs.length - 1 ? -buyback : 0;
      f.treasury_stock_disposal_cf = qi === qs.length - 1 ? disposal : 0;
      f.treasury_stock_net_cf = f.treasury_stock_purchase_cf + f.treasury_stock_disposal_cf;
      f.financing_cf =
        f.dividends_paid_cf + f.treasury_stock_net_cf + math.round(debtChange / qs.length);
    });
    // Rounding remainder of the dividends goes to the last quarter so quarters sum to the year.
    const paidSoFar = qs.reduce((a, f) => a + f.dividends_paid_cf, 0);
    const last = qs[qs.length - 1];
    if (last) {
      last.dividends_paid_cf += -dividendsPaid - paidSoFar;
      last.financing_cf += -dividendsPaid - paidSoFar;
    }
    const yf = sumFlows(qs);
    const oePrev = oe;
    oe = oe + yf.net_income + yf.dividends_paid_cf + yf.oci - buyback + disposal;
    if (oe < oe0 * 0.3) oe = math.round(oe0 * 0.3); // equity raise keeps thin companies solvent
    aoci += yf.oci;
    treasuryAmount = treasuryAmount + buyback - disposal;

    const nci = math.round(oe * nciRatio);
    const netAssets = oe + nci;
    const er = erTarget * (1 + 0.04 * rng.normal());
    const ta = math.round(netAssets / er);
    const tl = ta - netAssets;
    const ca = math.round(ta * 0.45);
    const nca = ta - ca;
    const cashBs = math.round(ca * 0.3);
    const ppe = math.round(nca * 0.55);
    const intangible = math.round(nca * 0.1);
    const ioa = nca - ppe - intangible;
    const cl = math.round(tl * 0.5);
    const ncl = tl - cl;
    const stb = math.round(cl * 0.2);
    const ltb = math.round(ncl * 0.4);
    const inventories = math.round(ca * 0.2);
    const shareholdersEquity = oe - aoci;
    const balance: Balance = {
      oe,
      aoci,
      capitalStock,
      capitalSurplus,
      treasuryAmount,
      values: {
        aoci,
        buildings_and_structures: math.round(ppe * 0.3),
        capital_stock: capitalStock,
        capital_surplus: capitalSurplus,
        cash_and_deposits_bs: cashBs,
        current_assets: ca,
        current_liabilities: cl,
        gain_on_disposal_of_treasury_stock: disposal > 0 ? math.round(disposal * 0.1) : null,
        goodwill: math.round(intangible * (standardFor(spec, p.year) === "J-GAAP" ? 0.3 : 0.6)),
        intangible_assets: intangible,
        interest_bearing_debt: stb + ltb + math.round(ncl * 0.1),
        inventories,
        inventories_incl_re:
          spec.industry === "不動産業" ? inventories + math.round(ca * 0.25) : inventories,
        investment_securities: math.round(ioa * 0.5),
        investments_and_other_assets: ioa,
        land: math.round(ppe * 0.25),
        long_term_borrowings: ltb,
        net_assets: netAssets,
        non_controlling_interests: nci,
        noncurrent_assets: nca,
        noncurrent_liabilities: ncl,
        owners_equity: oe,
        ppe,
        retained_earnings: shareholdersEquity - capitalStock - capitalSurplus + treasuryAmount,
        securities: math.round(ca * 0.05),
        shareholders_equity: shareholdersEquity,
        short_term_borrowings: stb,
        total_assets: ta,
        total_liabilities: tl,
        trade_payable: math.round(cl * 0.3),
        trade_receivable: math.round(ca * 0.3),
        treasury_stock_amount: -treasuryAmount,
        working_capital: ca - cl,
        cash_and_equivalents: math.round(cashBs * 0.97),
      },
    };
    const unverifiable = spec.traits.has("unverifiable-year") && p.year === UNVERIFIABLE_YEAR;
    const sharesReported = unverifiable ? null : math.round(currentShares / factor);
    const treasuryShares = sharesReported === null ? null : math.round(sharesReported * ts);
    const averageShares =
      sharesReported === null || treasuryShares === null
        ? null
        : math.round((sharesReported - treasuryShares) * (1 + 0.004 * rng.normal()));
    states.push({
      period: p, flows: yf, balance, sharesReported, treasuryShares, averageShares, factor,
      dpsQ2Adj, dpsYeAdj, dpsQ2: smallCap || p.quarterCount < 4 ? null : dpsQ2, dpsYe, dps,
      totalDividends, oePrev,
    }); // prettier-ignore
    prevDpsAdj = dpsAdj / scale;
  }

  const facts = new Map<string, FiscalYearFacts>();
  for (const s of states) {
    facts.set(s.period.label, {
      period: s.period,
      sharesCurrentBasis: math.round(currentShares * (1 - tsBase)),
      dpsAdjusted: s.dpsQ2Adj + s.dpsYeAdj,
    });
  }

  const build = new RowBuilder(spec);
  const annual: FinancialsPeriod[] = [];
  const byYear = new Map<number, YearState[]>();
  for (const s of states) byYear.set(s.period.year, [...(byYear.get(s.period.year) ?? []), s]);
  for (const year of [...byYear.keys()].sort((a, b) => a - b)) {
    const list = byYear.get(year) ?? [];
    const full = list.filter((s) => !s.period.transitional);
    if (full.length > 0) {
      for (const s of full) annual.push(build.yearRow(s, s.flows, undefined));
      continue;
    }
    // openapi.json getFinancials: no 12-month result in this calendar year -> TTM fill or
    // balance-only fill.
    for (const s of list) {
      if (spec.fyChange?.ttmAvailable) {
        const endIdx = s.period.firstQuarter + s.period.quarterCount;
        const ttm = sumFlows(flows.slice(math.max(0, endIdx - 4), endIdx));
        annual.push(build.yearRow(s, ttm, undefined));
      } else {
        annual.push(build.yearRow(s, null, undefined));
      }
    }
  }

  const quarterly: FinancialsPeriod[] = [];
  const semiannual: FinancialsPeriod[] = [];
  const stateByLabel = new Map(states.map((s) => [s.period.label, s]));
  for (const p of periods) {
    const s = stateByLabel.get(p.label);
    const qFlows = flows.slice(p.firstQuarter, p.firstQuarter + p.publishedQuarters);
    const shares = s?.averageShares ?? states[states.length - 1]?.averageShares ?? null;
    const factor = shareFactor(spec.events, p.end);
    if (p.year >= spec.quarterlyFromYear) {
      qFlows.forEach((f, qi) => {
        quarterly.push(
          build.quarterRow(p, f, `Q${qi + 1}` as Quarter, shares, factor, spec.cfSemiannualOnly),
        );
      });
      if (s) quarterly.push(build.yearRow(s, s.flows, "full_year"));
    }
    if (p.year >= spec.quarterlyFromYear || spec.cfSemiannualOnly) {
      if (p.quarterCount === 4 && qFlows.length >= 2) {
        const h1 = sumFlows(qFlows.slice(0, 2));
        const row = build.quarterRow(p, h1, "H1", shares, factor, false);
        if (s?.dpsQ2 !== null && s?.dpsQ2 !== undefined) {
          row.dps_q2 = s.dpsQ2;
          row.dps_q2_adjusted = round(s.dpsQ2Adj, 2);
        }
        semiannual.push(row);
      }
      if (s) semiannual.push(build.yearRow(s, s.flows, "full_year"));
    }
  }
  return { spec, periods, quarters, annual, quarterly, semiannual, facts, currentShares };
}

class RowBuilder {
  constructor(private readonly spec: CompanySpec) {}

  private header(
    label: string,
    year: number,
    quarter: Quarter | undefined,
    fullYear: boolean,
  ): FinancialsPeriod {
    const std = standardFor(this.spec, year);
    const firstAfterSwitch = this.spec.switchYear === year && this.spec.previousStandard;
    const base = emptyFinancialsRow({
      fiscal_year: label,
      accounting_standard: std,
      is_consolidated: this.spec.consolidated,
      scope_exceptions: this.spec.consolidated && fullYear ? [...PARENT_ONLY_KEYS] : [],
      standard_exceptions:
        firstAfterSwitch && this.spec.previousStandard
          ? { [this.spec.previousStandard]: ["capital_expenditure", "depreciation"] }
          : {},
    });
    if (quarter !== undefined) base.quarter = quarter;
    return base;
  }

  private applyFlows(row: FinancialsPeriod, f: Flows, year: number, nullCf: boolean): void {
    const r = row as unknown as Values;
    for (const k of FLOW_KEYS) r[k] = f[k];
    if (standardFor(this.spec, year) !== "J-GAAP") for (const k of JGAAP_ONLY_KEYS) r[k] = null;
    if (nullCf) for (const k of CF_KEYS) r[k] = null;
  }

  quarterRow(
    p: PeriodDef,
    f: Flows,
    quarter: Quarter,
    shares: number | null,
    factor: number,
    nullCf: boolean,
  ): FinancialsPeriod {
    const row = this.header(p.label, p.year, quarter, false);
    this.applyFlows(row, f, p.year, nullCf);
    if (shares) {
      row.eps = round(f.net_income / shares, 2);
      row.eps_adjusted = round(row.eps / factor, 2);
      row.eps_computed = row.eps;
      row.eps_computed_adjusted = row.eps_adjusted;
    }
    return row;
  }

  yearRow(s: YearState, f: Flows | null, quarter: Quarter | undefined): FinancialsPeriod {
    const p = s.period;
    const spec = this.spec;
    const row = this.header(p.label, p.year, quarter, true);
    const r = row as unknown as Values;
    if (f) this.applyFlows(row, f, p.year, false);
    for (const [k, v] of Object.entries(s.balance.values)) r[k as ValueKey] = v ?? null;
    const oe = s.balance.oe;
    const ta = s.balance.values.total_assets ?? 1;
    row.shares_outstanding = s.sharesReported;
    row.treasury_shares = s.treasuryShares;
    row.average_shares = s.averageShares;
    row.equity_ratio = round(oe / ta, 4);
    const F = s.factor;
    const netShares =
      s.sharesReported !== null && s.treasuryShares !== null
        ? s.sharesReported - s.treasuryShares
        : null;
    if (f) {
      const ni = f.net_income;
      const avgOe = (s.oePrev + oe) / 2;
      const roe = avgOe > 0 ? (ni / avgOe) * 100 : null;
      if (roe !== null && math.abs(roe) <= 1000) row.roe_computed = round(roe, 2);
      // openapi.json ValuationHistoryPoint: reported ROE exists for about 80% of periods.
      if (roe !== null && (p.year * 7 + spec.code.charCodeAt(0)) % 5 !== 0) row.roe = round(roe, 1);
      const earlyUnreported = spec.traits.has("eps-unreported-early") && p.year < 2010;
      if (s.averageShares && !earlyUnreported) {
        row.eps = round(ni / s.averageShares, 2);
        row.eps_adjusted = round(row.eps / F, 2);
        if (spec.code.charCodeAt(1) % 2 === 0) {
          row.diluted_eps = round(row.eps * 0.996, 2);
          row.diluted_eps_adjusted = round(row.diluted_eps / F, 2);
        }
      }
      if (netShares) {
        row.eps_computed = round(ni / netShares, 2);
        row.eps_computed_adjusted = round(ni / (netShares * F), 2);
      }
      row.dps = s.dps;
      row.dps_q2 = s.dpsQ2;
      row.dps_year_end = s.dpsYe;
      row.dps_adjusted = round(s.dpsQ2Adj + s.dpsYeAdj, 2);
      row.dps_q2_adjusted = s.dpsQ2 === null ? null : round(s.dpsQ2Adj, 2);
      row.dps_year_end_adjusted = round(s.dpsYeAdj, 2);
      row.total_dividends = s.totalDividends;
      if (row.eps !== null && row.eps > 0 && row.dps !== null)
        row.payout_ratio = round(row.dps / row.eps, 4);
    }
    if (netShares) {
      // Reported BPS deducts subscription rights, so it differs slightly from the computed one.
      row.bps = round((oe * 0.9985) / netShares, 2);
      row.bps_adjusted = round(row.bps / F, 2);
      row.bps_computed = round(oe / netShares, 2);
      row.bps_computed_adjusted = round(oe / (netShares * F), 2);
    }
    if (s.sharesReported === null) {
      // openapi.json ValuationHistoryPoint, FinancialsPeriod: adjusted per-share values are null
      // when the share basis cannot be verified.
      row.dps_adjusted = null;
      row.dps_q2_adjusted = null;
      row.dps_year_end_adjusted = null;
    }
    this.humanCapital(row, s, f);
    return row;
  }

  private humanCapital(row: FinancialsPeriod, s: YearState, f: Flows | null): void {
    const spec = this.spec;
    const y = s.period.year;
    const sales = f?.sales ?? (s.balance.values.total_assets ?? 0) * 0.8;
    const perEmployee = 40e6 + (spec.code.charCodeAt(2) % 10) * 12e6;
    const employees = math.max(12, math.round(sales / perEmployee));
    const h = ((spec.code.charCodeAt(0) * 31 + spec.code.charCodeAt(3)) % 100) / 100;
    row.number_of_employees = employees;
    row.number_of_employees_parent = spec.consolidated
      ? math.max(8, math.round(employees * 0.3))
      : employees;
    row.temporary_employees = math.round(employees * 0.12);
    row.temporary_employees_parent = math.round(employees * 0.04);
    row.average_age = round(38 + h * 6 + (y - 2005) * 0.12, 1);
    row.average_years_of_service = round(10 + h * 8 + (y - 2005) * 0.08, 1);
    row.average_annual_salary =
      math.round(((5_200_000 + h * 4_500_000) * math.pow(1.012, y - 2005)) / 1000) * 1000;
    if (y >= 2010) {
      const big = spec.salesOku >= 10000;
      row.directors_remuneration = math.round((big ? 1.2e9 : 1.8e8) * (1 + h));
      row.outside_officers_remuneration = math.round((big ? 1.1e8 : 3.0e7) * (1 + h));
      row.auditors_remuneration = math.round((big ? 9.0e7 : 2.4e7) * (1 + h));
    }
    if (y >= 2015) row.number_of_female_directors = math.min(5, math.floor((y - 2014) / 3 + h * 2));
    if (y >= 2022) {
      const scale = sales / 1e8;
      const s1 = math.round(
        scale *
          (spec.industry === "鉄鋼" || spec.industry === "電気・ガス業" ? 120 : 6) *
          (1 - (y - 2022) * 0.03),
      );
      const s2 = math.round(s1 * 0.8);
      const s3 = math.round((s1 + s2) * 6.5);
      row.ghg_scope1 = s1;
      row.ghg_scope2 = s2;
      row.ghg_scope1_and_2 = s1 + s2;
      row.ghg_scope3 = s3;
      row.ghg_scope1_2_3 = s1 + s2 + s3;
    }
    if (y >= 2023) {
      const dirs = 9 + math.round(h * 4);
      row.ratio_of_female_directors = round((row.number_of_female_directors ?? 1) / dirs, 3);
      row.ratio_of_female_managers = round(0.04 + h * 0.12 + (y - 2023) * 0.01, 3);
      row.ratio_of_male_employees_taking_childcare_leave = round(
        math.min(1, 0.3 + h * 0.6 + (y - 2023) * 0.08),
        3,
      );
      row.wage_gap_all_employees = round(0.62 + h * 0.15, 3);
      row.wage_gap_regular_employees = round(0.7 + h * 0.12, 3);
      row.wage_gap_non_regular_employees = round(0.75 + h * 0.2, 3);
    }
  }
}
