// An independent reference for the period rules (README "Periods"): which figure a period argument names, straight from raw /financials answers.
//
// Written apart from the add-in's period code (src/excel/period-*.ts, financial-period.ts) and
// importing none of it: it dates periods with calendar days (JS Dates), not month indexes, so a
// shared mistake in month arithmetic cannot hide in both.

/** A row as the API sends it (openapi.json FinancialsPeriod): the label fields and the values. */
export type RawRow = { fiscal_year: string; quarter?: string } & Record<string, unknown>;

/** The three raw answers of one company (years=30, no as_of), as the API gave them. */
export interface RawAnswers {
  annual: RawRow[];
  quarterly: RawRow[];
  semiannual: RawRow[];
}

/** What the oracle expects a FINANCIAL cell to show. */
export type Expected =
  { value: number | null; label: string } | { error: "future" | "none" | "refused" };

type Kind = "annual" | "quarterly" | "semiannual" | "LTM";

/** A parsed period argument. */
type Arg =
  | { t: "rel"; n: number; unit?: Kind }
  | { t: "endYear"; y: number; q?: string }
  | { t: "label"; ym: string; q?: string }
  | { t: "startYear"; y: number; q?: string }
  | { t: "day"; d: string };

// ---- calendar days -------------------------------------------------------------------------

const DAY = 86_400_000;

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Last day of the month of "YYYY/MM" plus `months`. */
function monthLastDay(label: string, months = 0): string {
  const y = Number(label.slice(0, 4));
  const m = Number(label.slice(5, 7)) - 1 + months;
  return iso(Date.UTC(y, m + 1, 1) - DAY);
}

function addMonthsToDay(day: string, months: number): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7)) - 1 + months;
  return iso(Date.UTC(y, m, 1));
}

/** Excel serial -> ISO day. */
function serialDay(serial: number): string {
  return iso(Date.UTC(1899, 11, 30) + Math.floor(serial) * DAY);
}

/** ISO day -> Excel serial. */
export function daySerial(day: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / DAY);
}

// ---- parsing -------------------------------------------------------------------------------

const ERA: Record<string, number> = { 令和: 2018, 平成: 1988, 昭和: 1925 };

/** The period argument as typed (text or number); undefined when the oracle would refuse it. */
function parseArg(v: string | number | null): Arg | undefined {
  if (v === null) return { t: "rel", n: 0 };
  if (typeof v === "number") {
    if (v <= 0) return { t: "rel", n: v };
    if (v >= 1900 && v <= 2100) return { t: "endYear", y: v };
    if (v >= 190001 && v <= 210012)
      return { t: "label", ym: `${Math.floor(v / 100)}/${String(v % 100).padStart(2, "0")}` };
    if (v > 2100 && v < 100000) return { t: "day", d: serialDay(v) };
    return undefined;
  }
  const s = v.trim().toUpperCase();
  let m = /^(FY|FQ|FH|LTM)(-\d+|0)?$/.exec(s);
  if (m) {
    const unit = ({ FY: "annual", FQ: "quarterly", FH: "semiannual", LTM: "LTM" } as const)[
      m[1] as "FY"
    ];
    return { t: "rel", n: m[2] ? Number(m[2]) : 0, unit };
  }
  m = /^(?:FY)?(\d{4})(Q[1-4]|H[12])?$/.exec(s);
  if (m && (s.startsWith("FY") || m[2]))
    return { t: "endYear", y: Number(m[1]), ...(m[2] ? { q: m[2] } : {}) };
  m = /^(\d{4})年(\d{1,2})月期$/.exec(s);
  if (m) return { t: "label", ym: `${m[1]}/${String(Number(m[2])).padStart(2, "0")}` };
  m = /^(\d{4})年度$/.exec(s);
  if (m) return { t: "startYear", y: Number(m[1]) };
  m = /^(令和|平成|昭和)(元|\d{1,2})年度$/.exec(s);
  if (m)
    return {
      t: "startYear",
      y: (ERA[m[1] as string] as number) + (m[2] === "元" ? 1 : Number(m[2])),
    };
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return { t: "day", d: s };
  return undefined;
}

// ---- dating ---------------------------------------------------------------------------------

interface Period {
  row: RawRow | undefined;
  /** For H2: the full year and H1 rows. */
  full?: RawRow;
  h1?: RawRow | undefined;
  fy: string;
  part: string; // Q1..Q4, H1, H2, FY
  first: string; // first day of the fiscal year
  fyMonths: number;
  end: string; // last day of the part
}

type Starts = Map<string, { first: string; months: number }>;

/**
 * The datings below, made once per company's answers: a property asks the oracle for thousands of
 * cells of the same few companies, and dating every row again for each cell was most of its time.
 * Pure functions of the rows (every caller copies a list before sorting it), so a kept result is
 * the one a new dating would give.
 */
const startsKept = new WeakMap<RawAnswers, Starts>();
const periodsKept = new WeakMap<Starts, WeakMap<RawRow[], Map<boolean, Period[]>>>();

function startsOf(raw: RawAnswers): Starts {
  let starts = startsKept.get(raw);
  if (starts === undefined) {
    starts = fiscalYearStarts([...raw.quarterly, ...raw.semiannual].map((r) => r.fiscal_year));
    startsKept.set(raw, starts);
  }
  return starts;
}

function datedPeriods(rows: RawRow[], starts: Starts, annual: boolean): Period[] {
  let byRows = periodsKept.get(starts);
  if (byRows === undefined) periodsKept.set(starts, (byRows = new WeakMap()));
  let byKind = byRows.get(rows);
  if (byKind === undefined) byRows.set(rows, (byKind = new Map()));
  let periods = byKind.get(annual);
  if (periods === undefined) byKind.set(annual, (periods = periodsOf(rows, starts, annual)));
  return periods;
}

/** First day of each fiscal year: the day after the previous fiscal year's end, at most 12 months back. */
function fiscalYearStarts(labels: string[]): Starts {
  const sorted = [...new Set(labels)].sort();
  const out = new Map<string, { first: string; months: number }>();
  sorted.forEach((label, i) => {
    const twelveBack = iso(Date.parse(`${monthLastDay(label, -12)}T00:00:00Z`) + DAY);
    const prev = sorted[i - 1];
    const afterPrev =
      prev === undefined ? undefined : iso(Date.parse(`${monthLastDay(prev)}T00:00:00Z`) + DAY);
    const first = afterPrev !== undefined && afterPrev > twelveBack ? afterPrev : twelveBack;
    const months =
      (Number(label.slice(0, 4)) - Number(first.slice(0, 4))) * 12 +
      Number(label.slice(5, 7)) -
      Number(first.slice(5, 7)) +
      1;
    out.set(label, { first, months });
  });
  return out;
}

const PART_MONTHS: Record<string, number> = { Q1: 3, Q2: 6, Q3: 9, Q4: 12, H1: 6 };

function periodsOf(
  rows: RawRow[],
  starts: Map<string, { first: string; months: number }>,
  annual: boolean,
): Period[] {
  return rows.map((row) => {
    const fy = row.fiscal_year;
    const s = starts.get(fy);
    const part = row.quarter === undefined || row.quarter === "full_year" ? "FY" : row.quarter;
    const first =
      annual || s === undefined
        ? iso(Date.parse(`${monthLastDay(fy, -12)}T00:00:00Z`) + DAY)
        : s.first;
    const months = annual || s === undefined ? 12 : s.months;
    const end =
      part === "FY"
        ? monthLastDay(fy)
        : iso(Date.parse(`${addMonthsToDay(first, PART_MONTHS[part] as number)}T00:00:00Z`) - DAY);
    return { row, fy, part, first, fyMonths: months, end };
  });
}

function byEnd(a: Period, b: Period): number {
  return a.end < b.end ? -1 : a.end > b.end ? 1 : a.part === "FY" ? 1 : b.part === "FY" ? -1 : 0;
}

// ---- choosing -------------------------------------------------------------------------------

function pick(list: Period[], arg: Arg): Period | undefined {
  const sorted = [...list].sort(byEnd);
  switch (arg.t) {
    case "rel":
      return sorted[sorted.length - 1 + arg.n];
    case "endYear":
      return sorted.filter((p) => p.fy.startsWith(`${arg.y}/`)).pop();
    case "label":
      return sorted.filter((p) => p.fy === arg.ym).pop();
    case "startYear": {
      const starting = sorted.filter((p) => Number(p.first.slice(0, 4)) === arg.y);
      return starting.find((p) => p.fyMonths === 12) ?? starting[0];
    }
    case "day": {
      // A period counts as ended on the last day of its month.
      return sorted.filter((p) => p.end <= arg.d).pop();
    }
  }
}

const FLOWS = new Set([
  "sales",
  "operating_profit",
  "net_income",
  "ordinary_income",
  "operating_cf",
]);
const STOCKS = new Set(["total_assets", "net_assets", "cash_and_equivalents"]);

function num(row: RawRow | undefined, item: string): number | null {
  const v = row?.[item];
  return typeof v === "number" ? v : null;
}

/**
 * What FINANCIAL(company, item, arg, type) should show, from raw answers and today's date.
 * `item` is one of the flows or stocks above.
 */
export function expectedFinancial(
  raw: RawAnswers,
  item: string,
  argument: string | number | null,
  explicitType: Kind | null,
  today: string,
): Expected {
  const arg = parseArg(argument);
  if (arg === undefined) return { error: "refused" };
  if (arg.t === "day" && arg.d > today) return { error: "future" };
  const tokenQ = "q" in arg ? arg.q : undefined;
  const implied: Kind | undefined =
    arg.t === "rel"
      ? arg.unit
      : tokenQ === undefined
        ? undefined
        : tokenQ.startsWith("H")
          ? "semiannual"
          : "quarterly";
  if (
    implied !== undefined &&
    explicitType !== null &&
    implied !== explicitType &&
    !(explicitType === "LTM" && implied === "quarterly")
  )
    return { error: "refused" };
  const kind: Kind = explicitType ?? implied ?? "annual";
  const starts = startsOf(raw);

  if (kind === "annual") {
    const p = pick(datedPeriods(raw.annual, starts, true), arg);
    return p ? { value: num(p.row, item), label: p.fy } : { error: "none" };
  }
  if (kind === "quarterly") {
    const all = datedPeriods(raw.quarterly, starts, false);
    const list =
      tokenQ !== undefined
        ? all.filter((p) => p.part === tokenQ)
        : arg.t === "rel" || arg.t === "day"
          ? all.filter((p) => p.part.startsWith("Q"))
          : all.filter((p) => p.part === "FY");
    const p = pick(list, arg);
    return p ? { value: num(p.row, item), label: `${p.fy} ${p.part}` } : { error: "none" };
  }
  if (kind === "semiannual") {
    const all = datedPeriods(raw.semiannual, starts, false);
    const halves: Period[] = [];
    for (const p of all) {
      if (p.fyMonths !== 12) continue;
      if (p.part === "H1") halves.push(p);
      if (p.part === "FY") {
        const h1 = all.find((x) => x.fy === p.fy && x.part === "H1")?.row;
        halves.push({ ...p, part: "H2", row: undefined, full: p.row as RawRow, h1 });
      }
    }
    const list =
      tokenQ !== undefined
        ? halves.filter((p) => p.part === tokenQ)
        : arg.t === "rel" || arg.t === "day"
          ? halves
          : all.filter((p) => p.part === "FY");
    const p = pick(list, arg);
    if (p === undefined) return { error: "none" };
    if (p.part !== "H2") return { value: num(p.row, item), label: `${p.fy} ${p.part}` };
    if (STOCKS.has(item)) return { value: num(p.full, item), label: `${p.fy} H2` };
    if (p.h1 === undefined) return { error: "none" };
    const full = num(p.full, item);
    const first = num(p.h1, item);
    return { value: full === null || first === null ? null : full - first, label: `${p.fy} H2` };
  }
  // LTM: four consecutive single quarters ending at the anchor (flows), the latest year-end
  // balance by then (stocks).
  const all = datedPeriods(raw.quarterly, starts, false);
  const singles = all.filter((p) => p.part.startsWith("Q")).sort(byEnd);
  const anchorList =
    tokenQ !== undefined
      ? singles.filter((p) => p.part === tokenQ)
      : arg.t === "rel" || arg.t === "day"
        ? singles
        : singles.filter((p) => p.end === monthLastDay(p.fy));
  const anchor = pick(anchorList, arg);
  if (anchor === undefined) return { error: "none" };
  if (STOCKS.has(item)) {
    const bal = all
      .filter((p) => p.part === "FY" && p.end <= anchor.end)
      .sort(byEnd)
      .pop();
    return bal
      ? { value: num(bal.row, item), label: `LTM ${anchor.fy} ${anchor.part}` }
      : { error: "none" };
  }
  if (!FLOWS.has(item)) return { error: "refused" };
  const label = `LTM ${anchor.fy} ${anchor.part}`;
  const sum = fourQuarters(singles, anchor, item);
  if (sum !== undefined) return { value: sum, label };
  const fromHalves = twelveMonthsFromHalves(raw, starts, anchor, item);
  return fromHalves === undefined ? { error: "none" } : { value: fromHalves, label };
}

/** The four single quarters ending at `anchor` summed, when they are back to back and all disclosed. */
function fourQuarters(singles: Period[], anchor: Period, item: string): number | undefined {
  const at = singles.indexOf(anchor);
  const four = singles.slice(at - 3, at + 1);
  if (at < 3 || four.length !== 4) return undefined;
  for (let i = 1; i < 4; i++) {
    const prevEnd = Date.parse(`${(four[i - 1] as Period).end}T00:00:00Z`);
    const start = iso(Date.parse(`${addMonthsToDay((four[i] as Period).end, -2)}T00:00:00Z`));
    if (iso(prevEnd + DAY) !== start) return undefined;
  }
  let sum = 0;
  for (const p of four) {
    const v = num(p.row, item);
    if (v === null) return undefined;
    sum += v;
  }
  return sum;
}

/**
 * The same twelve months from year and half-year figures, when the quarters cannot give them
 * (a quarter missing or undisclosed): ending at a 12-month year's end, that year's full-year
 * figure; ending at its sixth month, H1 + the second half of the 12-month year just before it
 * (its full year − its H1). Any other end has no such sum.
 */
function twelveMonthsFromHalves(
  raw: RawAnswers,
  starts: Map<string, { first: string; months: number }>,
  anchor: Period,
  item: string,
): number | undefined {
  if (anchor.fyMonths !== 12) return undefined;
  const rows = [
    ...datedPeriods(raw.quarterly, starts, false),
    ...datedPeriods(raw.semiannual, starts, false),
  ];
  const find = (fy: string, part: string): number | null =>
    num(rows.find((p) => p.fy === fy && p.part === part)?.row, item);
  if (anchor.end === monthLastDay(anchor.fy)) return find(anchor.fy, "FY") ?? undefined;
  const halfEnd = iso(Date.parse(`${addMonthsToDay(anchor.first, 6)}T00:00:00Z`) - DAY);
  if (anchor.end !== halfEnd) return undefined;
  // The 12-month year that ended the day before the anchor's year began.
  const before = iso(Date.parse(`${anchor.first}T00:00:00Z`) - DAY);
  const previous = rows.find((p) => p.part === "FY" && p.end === before && p.fyMonths === 12);
  if (previous === undefined) return undefined;
  const h1 = find(anchor.fy, "H1");
  const full = find(previous.fy, "FY");
  const previousH1 = find(previous.fy, "H1");
  if (h1 === null || full === null || previousH1 === null) return undefined;
  return h1 + full - previousH1;
}
