// FINANCIAL (one value for a model cell): its arguments, the /financials answers it reads and one
// synchronous computation over them, defined once (functions/cells/define-cell.ts) for every path.

import type { FinancialsPeriod, FinancialsResponse } from "../src/contract";
import { FIELD_DICTIONARY } from "../src/contract";
import { ArgumentError, moneyUnitArg, requiredText, type Company } from "../src/excel/args";
import type { MoneyUnit } from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import {
  secondHalfValue,
  type FinancialPeriodArgs,
  type FiscalPeriodSpec,
  type PeriodEntry,
  type Quarter,
} from "../src/excel/financial-period";
import { ltmKind } from "../src/excel/ltm-kind";
import { companyFinancials, knownFinancialsAsk } from "../src/domain/company-resolver";
import { fieldInfo, unitOf } from "../src/excel/labels";
import { moneyUnitFor } from "../src/excel/units";
import { dividedCell, sheetDivisor, unitCell } from "../src/excel/number-formats";
import { EMPTY, type Cell, type HostCapabilities } from "../src/excel/values";
import type { KaishaClient, ParamsOf } from "../src/client";
import { FINANCIALS_FETCH_YEARS } from "../src/domain/financials-window";
import { fieldList, noResults } from "./common";
import { noData, refuseFutureDay } from "./excel-errors";
import { companyOf } from "./company-arg";
import type { InvocationLike } from "./run";
import { defineCell, LACKING, type Answers, type CellResult } from "./cells/define-cell";
import {
  financialsQuery,
  fiveTable,
  internedCompanyRef,
  internedFive,
  internedText,
  periodArgsOf,
  type FinancialsPeriodType,
} from "./cells/interned-args";
import { peekOperation, sharedAnswer } from "./cells/answers";
import {
  roundedToItem,
  ltmFromHalvesOf,
  ltmOf,
  olderWindowOf,
  rememberedFailure,
  rowOf,
} from "./cells/answer-index";

/** Every numeric financials key, in schema order (openapi.json FinancialsPeriod). */
export const FINANCIAL_ITEMS: readonly string[] = FIELD_DICTIONARY.financials.map((f) => f.key);

/** Older windows FINANCIAL may step back through (30 years each: back to the 1900s). */
const MAX_OLDER_WINDOWS = 4;

/** What FINANCIAL's `item` takes, for its messages. */
const ITEM_FORMS = {
  en: 'a key from =KAISHA.FIELDS("financials"), e.g. sales',
  ja: '=KAISHA.FIELDS("financials") のキー（sales など）',
} as const;

/** What a FINANCIAL cell asks of a company: the item key, the period and the money unit. */
interface FinancialWhat {
  /** The period arguments read (one frozen object per argument triple: spec, type, quarter). */
  period: FinancialPeriodArgs;
  itemKey: string;
  money: MoneyUnit;
  unitId: ReturnType<typeof unitOf>;
  /** What the item's numbers are divided by in this unit (number-formats.ts sheetDivisor). */
  divisor: number;
}

/** A FINANCIAL cell's arguments: the company as typed and what is asked of it. */
interface FinancialArgs {
  ref: CompanyRef;
  what: FinancialWhat;
}

/** The item text as a financials key (a module-level reader: internedText remembers it per text). */
function readItemKey(item: unknown): string {
  const key = fieldList(
    requiredText(item, "item", ITEM_FORMS),
    "item",
    FINANCIAL_ITEMS,
    [],
    "financials",
    true,
  );
  if (key.length !== 1) throw new ArgumentError("item", ITEM_FORMS, item);
  return key[0] as string;
}

function makeWhat(period: FinancialPeriodArgs, itemKey: string, money: string): FinancialWhat {
  if (period.type === "LTM" && ltmKind(itemKey) === undefined) {
    throw new ArgumentError(
      "item",
      {
        en: "an income, cash-flow, balance-sheet or per-share item with period LTM",
        ja: "LTM では損益・キャッシュフロー・貸借対照表・1株当たりの項目",
      },
      itemKey,
    );
  }
  // openapi.json x-money-kind: the unit scales amounts only (never average_annual_salary per person).
  const scale = moneyUnitFor(fieldInfo("financials", itemKey), money as MoneyUnit);
  const unitId = unitOf("financials", itemKey);
  return { period, itemKey, money: scale, unitId, divisor: sheetDivisor(unitId, scale) };
}

/** FINANCIAL's argument readings but the company, by their raw values (interned-args.ts). */
const whats = fiveTable<FinancialWhat>();

/**
 * FINANCIAL's arguments but the company, read; ArgumentError (#VALUE!) names the first refused.
 * The same frozen object for the same raw values (a model has a few thousand distinct
 * combinations of item, period and unit, repeated for every company): no allocation per cell.
 */
export function financialWhat(
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
): FinancialWhat {
  return internedFive(whats, readWhat, item, fiscalPeriod, period, quarter, unit);
}

/** `financialWhat` read anew: the item and period readings shared by every combination naming them. */
function readWhat(
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
): FinancialWhat {
  const itemKey = internedText(readItemKey, item);
  const periodArgs = periodArgsOf(fiscalPeriod, period, quarter);
  return makeWhat(periodArgs, itemKey, moneyUnitArg(unit));
}

function companyLabel(company: Company): string {
  return "security_code" in company ? company.security_code : company.edinet_code;
}

function readItem(p: FinancialsPeriod, item: string): unknown {
  return (p as unknown as Record<string, unknown>)[item];
}

function describeSpec(spec: FiscalPeriodSpec): string {
  switch (spec.kind) {
    case "relative":
      return spec.offset === 0 ? "latest" : String(spec.offset);
    case "month":
      return spec.month;
    case "year":
      return String(spec.year);
    case "startYear":
      return `${spec.year}年度`;
    case "onOrBefore":
      return `on or before ${spec.iso}`;
  }
}

/** The period asked, for messages: "latest", "-2", "2024/03", "on or before 2024/03", then " Q2". */
function describeChoice(spec: FiscalPeriodSpec, quarter: Quarter | undefined): string {
  return quarter ? `${describeSpec(spec)} ${quarter}` : describeSpec(spec);
}

/** One /financials answer's query (interned-args.ts financialsQuery: one frozen object each). */
type FinancialsQuery = ParamsOf<"getFinancials">;

/** FINANCIAL's answers: /financials bodies by their interned query. */
type FinancialAnswers = Answers<FinancialsQuery, FinancialsResponse>;

/** The series FINANCIAL fetches for a period type (LTM sums quarterly rows). */
function fetchTypeOf(what: FinancialWhat): FinancialsPeriodType {
  return what.period.type === "LTM" ? "quarterly" : what.period.type;
}

/**
 * The answer of a series holding the period `spec` names: the widest window, or an older one
 * stepped back to (LACKING when one is not at hand: the reader noted which).
 */
function windowFor(
  who: Company,
  series: FinancialsPeriodType,
  spec: FiscalPeriodSpec,
  answers: FinancialAnswers,
): FinancialsResponse | typeof LACKING {
  let body = answers.read(financialsQuery(who, series, undefined));
  if (body === undefined) return LACKING;
  // An older period than the window: step back one whole window at a time (each step the same
  // request for every older cell of the company), never past the start of the history.
  for (let step = 0; step < MAX_OLDER_WINDOWS; step++) {
    const older = olderWindowOf(body.periods, spec, FINANCIALS_FETCH_YEARS);
    if (older === undefined) break;
    body = answers.read(financialsQuery(who, series, older));
    if (body === undefined) return LACKING;
  }
  return body;
}

/** The answer holding the period a cell asks. */
export function answerFor(
  what: FinancialWhat,
  who: Company,
  answers: FinancialAnswers,
): FinancialsResponse | typeof LACKING {
  return windowFor(who, fetchTypeOf(what), what.period.spec, answers);
}

/**
 * The cell's value from the answers at hand, LACKING when one it needs is missing, or a thrown
 * #N/A when the data has no such value. `who` is the company the answers are asked for.
 */
function financialValue(
  args: FinancialArgs,
  who: Company,
  answers: FinancialAnswers,
  host: HostCapabilities,
  client: KaishaClient,
): Cell | typeof LACKING {
  const { what } = args;
  const { itemKey, money, unitId } = what;
  const { spec, type } = what.period;
  // A date not reached yet has no period ended on it: refused before any request. The user's own
  // today east of Japan, a day ahead of Japan's, is the latest period (the month it names has no
  // period ended after Japan's today either).
  if (spec.kind === "onOrBefore") refuseFutureDay(spec.iso, client.today(), client.userToday());
  const body = answerFor(what, who, answers);
  if (body === LACKING) return LACKING;
  if (body.periods.length === 0) throw noResults();

  if (type === "LTM") {
    let ltm = ltmOf(body.periods, what.period, itemKey);
    if (!ltm.ok && ltm.reason === "incomplete" && ltm.anchor !== undefined) {
      // openapi.json getFinancials: an item disclosed only half-yearly (cash flow) is null in
      // quarterly rows; Q4 reads the full year, Q2 adds the halves (one semiannual request per
      // company).
      const { anchor, span } = ltm;
      let halves = span ? ltmFromHalvesOf(body.periods, itemKey, anchor, span) : ltm;
      if (!halves.ok && span && anchor.quarter === "Q2" && ltmKind(itemKey) === "flow") {
        // The halves of the anchor's year, from the semiannual window holding it (an older
        // anchor than the latest window steps back as the quarterly answer did).
        const year: FiscalPeriodSpec = { kind: "month", month: anchor.fiscal_year };
        const semi = windowFor(who, "semiannual", year, answers);
        if (semi === LACKING) return LACKING;
        halves = ltmFromHalvesOf(semi.periods, itemKey, anchor, span);
      }
      if (halves.ok) ltm = halves;
    }
    if (!ltm.ok) throw noLtm(body, what, who, ltm);
    if (ltm.value === null) return EMPTY;
    // A sum of four quarters carries float noise (0.1 + 0.2); the API's figures do not: round
    // to the precision of the item's own values before scaling.
    return unitCell(roundedToItem(body.periods, itemKey, ltm.value), unitId, money, host);
  }
  // Not remembered per answer and cell (that kept an object per model cell alive): the row is
  // the index's, and shaping one number is cheap.
  return fromRow(what, who, body, host);
}

/**
 * A period's value (not LTM) from the one answer holding it: the row's figure, or H2 as full year
 * − H1; a thrown #N/A when there is none. Depends on that answer alone (remembered per answer).
 */
function fromRow(
  what: FinancialWhat,
  who: Company,
  body: FinancialsResponse,
  host: HostCapabilities,
): Cell {
  const { itemKey, money, unitId } = what;
  const row: PeriodEntry | undefined = rowOf(body.periods, what.period);
  if (row === undefined) throw noRow(body, what, who);
  // An H2 entry carries the full year it is taken from (period-rows.ts isSecondHalf), read here
  // without a call: a warm cell shapes its row's number in number-formats.ts alone.
  if (!("fullYear" in row))
    return dividedCell(readItem(row, itemKey), what.divisor, unitId, money, host);
  // H2 is not in the answer: full year − H1 of the same fiscal year (a half, never 12 months).
  const half = secondHalfValue(row, itemKey);
  if (!half.ok) throw noSecondHalf(body, what, who, row, half.reason);
  if (half.value === null) return EMPTY;
  return unitCell(roundedToItem(body.periods, itemKey, half.value), unitId, money, host);
}

// The failures below build their messages in closures of their own: a closure in financialValue
// or fromRow over their locals made V8 allocate its context on every entry, for every warm cell
// (~70 B each: bench profile-warm HEAP=1), though nearly every cell has a value.

/** #N/A for an LTM with no four quarters (remembered per answer and question). */
function noLtm(
  body: FinancialsResponse,
  what: FinancialWhat,
  who: Company,
  failed: Extract<ReturnType<typeof ltmOf>, { ok: false }>,
): Error {
  const { itemKey } = what;
  const { spec, quarter: q } = what.period;
  return rememberedFailure(body.periods, what, companyLabel(who), () => {
    const asked = describeChoice(spec, q);
    const odd = failed.reason === "incomplete" ? failed.anchor?.quarter : undefined;
    const oddQuarter = (odd === "Q1" || odd === "Q3") && ltmKind(itemKey) === "flow";
    return failed.reason === "no_anchor"
      ? noData(
          `LTM ${itemKey} (${asked}): no such quarter for ${companyLabel(who)}: see =KAISHA.FINANCIALS(…,"quarterly") for the quarters`,
          `LTM ${itemKey}（${asked}）：${companyLabel(who)} にその四半期はありません：FINANCIALS(…,"quarterly") で四半期を確認してください`,
        )
      : noData(
          `LTM ${itemKey} (${asked}): fewer than four consecutive quarters disclosed${oddQuarter ? "; half-yearly items end at quarter Q2 or Q4" : ""}`,
          `LTM ${itemKey}（${asked}）：連続する4四半期のデータがありません${oddQuarter ? "（半期開示の項目は 四半期 を Q2 か Q4 に）" : ""}`,
        );
  });
}

/** #N/A for a period the answer has no row for. */
function noRow(body: FinancialsResponse, what: FinancialWhat, who: Company): Error {
  const { spec, type, quarter: q } = what.period;
  return rememberedFailure(body.periods, what, companyLabel(who), () => {
    const asked = describeChoice(spec, q);
    return noData(
      `No ${type} period ${asked} for ${companyLabel(who)}: see =KAISHA.FINANCIALS for the periods`,
      `${companyLabel(who)} に ${asked} の期間（${type}）はありません：FINANCIALS で期間を確認してください`,
    );
  });
}

/** #N/A for an H2 that cannot be taken as full year − H1. */
function noSecondHalf(
  body: FinancialsResponse,
  what: FinancialWhat,
  who: Company,
  row: PeriodEntry,
  reason: Extract<ReturnType<typeof secondHalfValue>, { ok: false }>["reason"],
): Error {
  const { itemKey } = what;
  return rememberedFailure(body.periods, what, companyLabel(who), () =>
    reason === "no_h1"
      ? noData(
          `H2 ${itemKey} of ${row.fiscal_year} for ${companyLabel(who)}: H2 is full year − H1, and H1 is not disclosed`,
          `${companyLabel(who)} の ${row.fiscal_year} 下期 ${itemKey}：下期は通期 − 上期で求めますが、上期が開示されていません`,
        )
      : noData(
          `H2 ${itemKey}: a ratio has no second-half figure (H2 is full year − H1); ask for H1 or the full year`,
          `下期の ${itemKey}：比率は通期 − 上期で求められません。H1 か通期を指定してください`,
        ),
  );
}

/**
 * FINANCIAL: one value, the cell Excel calls (functions/index.ts, the invocation first). Asks
 * /financials for the widest window (the client answers every cell of a company and period type
 * from one request, openapi.json getFinancials) and picks the row locally; one fetch per answer is
 * shared by every cell waiting for it (the client's sharing layer, answers.ts sharedAnswer).
 */
export const financialCell = defineCell<
  FinancialArgs,
  Company,
  FinancialsQuery,
  FinancialsResponse
>({
  // Excel's order, the company first (as the user reads the error). The pair is a new object per
  // call: every cell of a model has its own company and question, so interning it kept one object
  // (and two weak-map entries) per cell alive for nothing; nothing keys by it.
  parse: (company, item, fiscalPeriod, period, quarter, unit) => ({
    ref: internedCompanyRef(company),
    what: financialWhat(item, fiscalPeriod, period, quarter, unit),
  }),
  needs: {
    // A code or entity is the company; an EDINET code whose security code is known is asked by it
    // (company-resolver.ts knownFinancialsAsk); a name needs a look-up.
    subjectAtHand: ({ ref }, client) =>
      "security_code" in ref ? ref : "name" in ref ? undefined : knownFinancialsAsk(client, ref),
    subject: (ctx, args) => ("name" in args.ref ? companyOf(ctx, args.ref) : args.ref),
    first: (args, who) => [financialsQuery(who, fetchTypeOf(args.what), undefined)],
    peek: peekOperation("getFinancials"),
    // Aliases of a company share one answer (company-resolver.ts companyFinancials).
    fetch: (ctx, _args, who, query) =>
      sharedAnswer(ctx, "getFinancials", query, (options) =>
        companyFinancials(ctx.client, who, query, options),
      ),
    // Shared fetches are keyed by the company as typed (the full path's `who` for a code).
    shares: {
      operation: "getFinancials",
      fetchedAs: (args, query) =>
        financialsQuery(args.ref as Company, query.period as FinancialsPeriodType, query.as_of),
    },
    // The full path computes with the company as typed; an EDINET code asked by its learned security
    // code names the other code in its messages, so only the company itself makes a warm error final.
    finalSubject: (args, who) => who === args.ref,
  },
  compute: financialValue,
});

/**
 * FINANCIAL in Excel's order, the invocation last (as functions/index.ts declares it).
 *
 * @internal Tests and the bench call the cell so; the add-in calls `financialCell` itself.
 */
export function financial(
  company: unknown,
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
  invocation?: InvocationLike,
): CellResult {
  return financialCell(invocation, company, item, fiscalPeriod, period, quarter, unit);
}
