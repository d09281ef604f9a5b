// Segment results (openapi.json SegmentRow, getSegments): annual and single-quarter rows with basis
// values, revenue_share and yoy_growth, each tagged with the disclosure time of its source for the
// 24-hour rule.
import type { components } from "../../src/contract/generated/api-types";
import { addDays } from "./calendar";
import { planKey, type DisclosurePlan } from "./disclosure-plan";
import type { CompanyFinancials } from "./financials";
import type { SegmentRecord } from "./model";
import { round } from "./prng";
import { segmentNames } from "./segment-names";
import { labelEnd } from "./valuations";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type S = components["schemas"];
type FinancialsPeriod = S["FinancialsPeriod"];
type SegmentRow = S["SegmentRow"];

/** A company whose newest segment starts mid-year and is reported only from Q4 of its first year. */
const LATE_SEGMENT = { code: "6098", name: "海外事業", firstYear: 2020 };
/** Revenue share the late segment takes from its first year; the others keep their mix. */
const LATE_SEGMENT_SHARE = 0.08;
/** Quarter rows start here (older quarters are not restored). */
const QUARTER_ROWS_FROM = 2012;

function weights(names: string[], year: number, seed: number): number[] {
  const raw = names.map(
    (_, i) => (names.length - i) * (1 + 0.02 * (year - 2005) * (((seed + i) % 3) - 1)),
  );
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / sum);
}

function split(total: number, w: number[]): number[] {
  const parts = w.map((x) => math.round(total * x));
  const diff = total - parts.reduce((a, b) => a + b, 0);
  parts[parts.length - 1] = (parts[parts.length - 1] ?? 0) + diff;
  return parts;
}

function pct(a: number, b: number): number | null {
  return b > 0 ? round((a / b - 1) * 100, 2) : null;
}

function fallbackTime(label: string): string {
  return `${addDays(labelEnd(label), 45)}T06:00:00Z`;
}

export function generateSegments(
  fin: CompanyFinancials,
  plan: DisclosurePlan,
): { annual: SegmentRecord[]; quarter: SegmentRecord[] } {
  const spec = fin.spec;
  const allNames = segmentNames(spec);
  const seed = spec.code.charCodeAt(2);
  const cumulativeOnly = spec.code.charCodeAt(3) % 2 === 0;
  const namesFor = (year: number): string[] => {
    if (spec.code === LATE_SEGMENT.code) {
      return year >= LATE_SEGMENT.firstYear ? [...allNames, LATE_SEGMENT.name] : allNames;
    }
    return allNames;
  };
  const baseOpShares = (n: number): number[] =>
    weights(
      Array.from({ length: n }, (_, i) => String(i)),
      2005,
      seed + 1,
    );
  // A segment that appears takes a fixed share; the continuing segments keep their relative mix,
  // so their growth does not jump the year it appears.
  const withLate = (names: string[], base: (rest: string[]) => number[]): number[] => {
    const at = names.indexOf(LATE_SEGMENT.name);
    if (spec.code !== LATE_SEGMENT.code || at < 0) return base(names);
    const rest = base(names.filter((n) => n !== LATE_SEGMENT.name)).map(
      (w) => w * (1 - LATE_SEGMENT_SHARE),
    );
    rest.splice(at, 0, LATE_SEGMENT_SHARE);
    return rest;
  };
  const revenueShares = (names: string[], year: number): number[] =>
    withLate(names, (rest) => weights(rest, year, seed));
  const opShares = (names: string[]): number[] =>
    withLate(names, (rest) => baseOpShares(rest.length));
  /** Names present in a quarter: the late segment of its first year only from Q4. */
  const quarterNames = (year: number, q: number): string[] =>
    namesFor(year).filter(
      (n) =>
        !(
          spec.code === LATE_SEGMENT.code &&
          n === LATE_SEGMENT.name &&
          year === LATE_SEGMENT.firstYear &&
          q < 4
        ),
    );
  /** Single-quarter revenue and operating income per segment name of one quarterly row. */
  const quarterSplit = (
    r: FinancialsPeriod,
    year: number,
    q: number,
  ): { names: string[]; revs: number[]; ops: number[] } => {
    const names = quarterNames(year, q);
    return {
      names,
      revs: split(r.sales ?? 0, revenueShares(names, year)),
      ops: split(r.operating_profit ?? 0, opShares(names)),
    };
  };
  /**
   * The first year of the late segment: annual figures are the sums of its quarters (3 segments in
   * Q1-Q3, 4 in Q4), so quarters still add up to the year.
   */
  const lateYearSums = (label: string): { revs: number[]; ops: number[] } | null => {
    const year = Number(label.slice(0, 4));
    if (spec.code !== LATE_SEGMENT.code || year !== LATE_SEGMENT.firstYear) return null;
    const rows = fin.quarterly.filter(
      (r) => r.fiscal_year === label && r.quarter !== "full_year" && r.quarter !== undefined,
    );
    if (rows.length !== 4 || rows.some((r) => r.sales === null || r.operating_profit === null))
      return null;
    const names = namesFor(year);
    const revs = names.map(() => 0);
    const ops = names.map(() => 0);
    rows.forEach((r, qi) => {
      const part = quarterSplit(r, year, qi + 1);
      part.names.forEach((name, i) => {
        const at = names.indexOf(name);
        revs[at] = (revs[at] ?? 0) + (part.revs[i] ?? 0);
        ops[at] = (ops[at] ?? 0) + (part.ops[i] ?? 0);
      });
    });
    return { revs, ops };
  };

  // Annual rows.
  const annual: SegmentRecord[] = [];
  const annualRevenue = new Map<string, number>(); // `${year}|${name}` -> revenue
  const annualSets = new Map<number, string[]>();
  for (const row of fin.annual) {
    if (row.sales === null || row.operating_profit === null) continue;
    const year = Number(row.fiscal_year.slice(0, 4));
    const names = namesFor(year);
    annualSets.set(year, names);
    const sums = lateYearSums(row.fiscal_year);
    const revs = sums?.revs ?? split(row.sales, revenueShares(names, year));
    const ops = sums?.ops ?? split(row.operating_profit, opShares(names));
    const emps =
      row.number_of_employees === null
        ? null
        : split(row.number_of_employees, revenueShares(names, year));
    const assets =
      row.total_assets === null
        ? null
        : split(math.round(row.total_assets * 0.92), weights(names, year, seed + 2));
    const total = revs.reduce((a, b) => a + b, 0);
    const src =
      plan.byKey.get(planKey(spec.code, row.fiscal_year, "tanshin", null)) ??
      plan.byKey.get(planKey(spec.code, row.fiscal_year, "yuho", null));
    names.forEach((name, i) => {
      const revenue = revs[i] ?? 0;
      const prev = annualRevenue.get(`${year - 1}|${name}`);
      annualRevenue.set(`${year}|${name}`, revenue);
      annual.push({
        row: {
          fiscal_year: row.fiscal_year,
          quarter: null,
          segment_name: name,
          revenue,
          revenue_basis: "disclosed",
          operating_income: ops[i] ?? null,
          // A segment whose profit is computed upstream from other disclosed values.
          operating_income_basis:
            i === names.length - 1 && year % 4 === 0 ? "derived_upstream" : "disclosed",
          revenue_share: total > 0 ? round((revenue / total) * 100, 2) : null,
          yoy_growth: prev === undefined ? null : pct(revenue, prev),
          employees: emps?.[i] ?? null,
          assets: assets?.[i] ?? null,
        },
        source_disclosed_at: src?.disclosedAt ?? fallbackTime(row.fiscal_year),
      });
    });
  }

  // Quarter rows from the single-quarter financials.
  const quarter: SegmentRecord[] = [];
  const quarterRevenue = new Map<string, number>(); // `${year}|${q}|${name}`
  const byLabel = new Map<string, FinancialsPeriod[]>();
  for (const r of fin.quarterly) {
    if (r.quarter === "full_year" || r.quarter === undefined) continue;
    byLabel.set(r.fiscal_year, [...(byLabel.get(r.fiscal_year) ?? []), r]);
  }
  for (const [label, rows] of byLabel) {
    const year = Number(label.slice(0, 4));
    if (year < QUARTER_ROWS_FROM) continue;
    const fullNames = annualSets.get(year) ?? annualSets.get(year - 1) ?? namesFor(year);
    rows.forEach((r, qi) => {
      if (r.sales === null || r.operating_profit === null) return;
      const q = qi + 1;
      // The late segment of its first year is reported only from Q4.
      const { names, revs, ops } = quarterSplit(r, year, q);
      const total = revs.reduce((a, b) => a + b, 0);
      const complete = fullNames.every((n) => names.includes(n));
      const lastQuarter =
        q === rows.length && fin.periods.find((p) => p.label === label)?.complete === true;
      const src = lastQuarter
        ? plan.byKey.get(planKey(spec.code, label, "tanshin", null))
        : plan.byKey.get(planKey(spec.code, label, "q-tanshin", q));
      const basis =
        q === 1
          ? "disclosed"
          : lastQuarter || cumulativeOnly
            ? "derived_from_cumulative"
            : "disclosed";
      names.forEach((name, i) => {
        const revenue = revs[i] ?? 0;
        const prev = quarterRevenue.get(`${year - 1}|${q}|${name}`);
        quarterRevenue.set(`${year}|${q}|${name}`, revenue);
        const row: SegmentRow = {
          fiscal_year: label,
          quarter: q,
          segment_name: name,
          revenue,
          revenue_basis: basis,
          operating_income: ops[i] ?? null,
          operating_income_basis: basis,
          revenue_share: complete && total > 0 ? round((revenue / total) * 100, 2) : null,
          yoy_growth: prev === undefined ? null : pct(revenue, prev),
          employees: null,
          assets: null,
        };
        quarter.push({ row, source_disclosed_at: src?.disclosedAt ?? fallbackTime(label) });
      });
    });
  }
  const order = (a: SegmentRecord, b: SegmentRecord): number => {
    if (a.row.fiscal_year !== b.row.fiscal_year)
      return a.row.fiscal_year < b.row.fiscal_year ? 1 : -1;
    const qa = a.row.quarter ?? 0;
    const qb = b.row.quarter ?? 0;
    if (qa !== qb) return qb - qa;
    return a.row.segment_name < b.row.segment_name
      ? -1
      : a.row.segment_name > b.row.segment_name
        ? 1
        : 0;
  };
  return { annual: annual.sort(order), quarter: quarter.sort(order) };
}
