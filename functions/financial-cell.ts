// FINANCIAL (one value for a model cell): one synchronous computation over the /financials answers at
// hand, used from memory at once, after waiting for another cell's fetch, or by the full path.

import type { FinancialsPeriod, FinancialsResponse } from "../src/contract";
import { FIELD_DICTIONARY } from "../src/contract";
import { ArgumentError, moneyUnitArg, requiredText, type Company } from "../src/excel/args";
import type { MoneyUnit } from "../src/excel/args";
import {
  computeLtm,
  financialPeriodArgs,
  isSecondHalf,
  ltmFromHalves,
  olderWindowAsOf,
  secondHalfValue,
  type FinancialPeriodArgs,
  type FiscalPeriodSpec,
  type Quarter,
} from "../src/excel/financial-period";
import { ltmKind } from "../src/excel/ltm-kind";
import { knownFinancialsAsk } from "../src/domain/company-resolver";
import { unitOf } from "../src/excel/labels";
import { roundToDecimals, sourceDecimals, unitCell } from "../src/excel/number-formats";
import { EMPTY, type Cell, type HostCapabilities } from "../src/excel/values";
import { AbortError, type KaishaClient } from "../src/client";
import { FINANCIALS_FETCH_YEARS } from "../src/domain/financials-window";
import { getClient } from "../src/session";
import { BoundedMemo, entryOf } from "../src/client/bounded-memo";
import { fieldList, noResults } from "./common";
import { futureDate, noData, toCellError } from "./excel-errors";
import { companyOf, companyRefArg } from "./company-arg";
import { getHostCapabilities, messageLang } from "./host";
import { answeredAtOnce, inPreview, run, type InvocationLike } from "./run";
import { selectPeriodOnce } from "./period-index";
import {
  financialsQuery,
  joinSharedFetch,
  sharedFetchFor,
  sharedFinancials,
  type FinancialsPeriodType,
  type SharedFetch,
} from "./shared-financials";

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
}

/** An item text read once: a model repeats the same 60 texts in every company's cells. */
const itemKeys = new BoundedMemo<string, string>(4096);

function itemKeyArg(item: unknown): string {
  const known = typeof item === "string" ? itemKeys.get(item) : undefined;
  if (known !== undefined) return known;
  const key = fieldList(
    requiredText(item, "item", ITEM_FORMS),
    "item",
    FINANCIAL_ITEMS,
    [],
    "financials",
    true,
  );
  if (key.length !== 1) throw new ArgumentError("item", ITEM_FORMS, item);
  const itemKey = key[0] as string;
  if (typeof item === "string") itemKeys.set(item, itemKey);
  return itemKey;
}

/**
 * FINANCIAL's arguments but the company, read; ArgumentError (#VALUE!) names the first refused.
 * The same frozen object for the same texts (a model has a few thousand distinct combinations
 * of item, period and unit, repeated for every company): no allocation per cell.
 */
function financialWhat(
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
): FinancialWhat {
  const itemKey = itemKeyArg(item);
  const periodArgs = financialPeriodArgs(fiscalPeriod, period, quarter);
  const money = moneyUnitArg(unit);
  // financialPeriodArgs and the item and unit memos give the same values for the same texts.
  const byItem = entryOf(whatMemo, periodArgs, () => new Map());
  const byUnit = entryOf(byItem, itemKey, () => new Map<MoneyUnit, FinancialWhat>());
  const known = byUnit.get(money);
  if (known !== undefined) return known;
  if (periodArgs.type === "LTM" && ltmKind(itemKey) === undefined) {
    throw new ArgumentError(
      "item",
      {
        en: "an income, cash-flow, balance-sheet or per-share item with period LTM",
        ja: "LTM では損益・キャッシュフロー・貸借対照表・1株当たりの項目",
      },
      itemKey,
    );
  }
  const what: FinancialWhat = Object.freeze({
    period: periodArgs,
    itemKey,
    money,
    unitId: unitOf("financials", itemKey),
  });
  byUnit.set(money, what);
  return what;
}

const whatMemo = new WeakMap<FinancialPeriodArgs, Map<string, Map<MoneyUnit, FinancialWhat>>>();

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

/** Per frozen answer and item: the decimals its figures carry (an LTM sum is rounded to them). */
const itemDecimals = new WeakMap<readonly FinancialsPeriod[], Map<string, number>>();

function decimalsOfItem(periods: readonly FinancialsPeriod[], item: string): number {
  const read = () => sourceDecimals(periods.map((p) => readItem(p, item) as number | null));
  if (!Object.isFrozen(periods)) return read();
  return entryOf(
    entryOf(itemDecimals, periods, () => new Map<string, number>()),
    item,
    read,
  );
}

/** The answer for a period type and older window (`asOf`), or undefined when it is not at hand. */
type AnswerLookup = (
  period: FinancialsPeriodType,
  asOf: string | undefined,
) => FinancialsResponse | undefined;

/** Returned when an answer the value needs is not at hand (the lookup saw which). */
const LACKING: unique symbol = Symbol("lacking");

/** The answer holding the period asked: the widest window, or an older one stepped back to. */
function answerFor(what: FinancialWhat, lookup: AnswerLookup): FinancialsResponse | typeof LACKING {
  const { spec, type } = what.period;
  const fetchType = type === "LTM" ? "quarterly" : type;
  let body = lookup(fetchType, undefined);
  if (body === undefined) return LACKING;
  // An older period than the window: step back one whole window at a time (each step the same
  // request for every older cell of the company), never past the start of the history.
  for (let step = 0; step < MAX_OLDER_WINDOWS; step++) {
    const older = olderWindowAsOf(body.periods, spec, FINANCIALS_FETCH_YEARS);
    if (older === undefined) break;
    body = lookup(fetchType, older);
    if (body === undefined) return LACKING;
  }
  return body;
}

/**
 * The cell's value from the answers `lookup` has, LACKING when one it needs is missing, or a
 * thrown #N/A when the data has no such value. The same for every path, so a cell answered from
 * memory and one answered after a request can never differ.
 */
function financialValue(
  what: FinancialWhat,
  who: Company,
  lookup: AnswerLookup,
  host: HostCapabilities,
  client: KaishaClient,
): Cell | typeof LACKING {
  const { itemKey, money, unitId } = what;
  const { spec, type, quarter: q } = what.period;
  // A date not reached yet has no period ended on it: refused before any request.
  if (spec.kind === "onOrBefore") {
    const today = client.today();
    if (spec.iso > today) throw futureDate(spec.iso, today);
  }
  const body = answerFor(what, lookup);
  if (body === LACKING) return LACKING;
  if (body.periods.length === 0) throw noResults();

  if (type === "LTM") {
    let ltm = computeLtm(body.periods, itemKey, spec, q);
    if (!ltm.ok && ltm.reason === "incomplete" && ltm.anchor !== undefined) {
      // openapi.json getFinancials: an item disclosed only half-yearly (cash flow) is null in
      // quarterly rows; Q4 reads the full year, Q2 adds the halves (one semiannual request per
      // company).
      const { anchor, span } = ltm;
      let halves = span ? ltmFromHalves(body.periods, itemKey, anchor, span) : ltm;
      if (!halves.ok && span && anchor.quarter === "Q2" && ltmKind(itemKey) === "flow") {
        const semi = lookup("semiannual", undefined);
        if (semi === undefined) return LACKING;
        halves = ltmFromHalves(semi.periods, itemKey, anchor, span);
      }
      if (halves.ok) ltm = halves;
    }
    if (!ltm.ok) {
      const what = describeChoice(spec, q);
      const odd = ltm.reason === "incomplete" ? ltm.anchor?.quarter : undefined;
      const oddQuarter = (odd === "Q1" || odd === "Q3") && ltmKind(itemKey) === "flow";
      throw ltm.reason === "no_anchor"
        ? noData(
            `LTM ${itemKey} (${what}): no such quarter for ${companyLabel(who)}: see =KAISHA.FINANCIALS(…,"quarterly") for the quarters`,
            `LTM ${itemKey}（${what}）：${companyLabel(who)} にその四半期はありません：FINANCIALS(…,"quarterly") で四半期を確認してください`,
          )
        : noData(
            `LTM ${itemKey} (${what}): fewer than four consecutive quarters disclosed${oddQuarter ? "; half-yearly items end at quarter Q2 or Q4" : ""}`,
            `LTM ${itemKey}（${what}）：連続する4四半期のデータがありません${oddQuarter ? "（半期開示の項目は quarter を Q2 か Q4 に）" : ""}`,
          );
    }
    if (ltm.value === null) return EMPTY;
    // A sum of four quarters carries float noise (0.1 + 0.2); the API's figures do not: round
    // to the precision of the item's own values before scaling.
    const decimals = decimalsOfItem(body.periods, itemKey);
    return unitCell(roundToDecimals(ltm.value, decimals), unitId, money, host);
  }
  const row = selectPeriodOnce(body.periods, what.period);
  if (row === undefined) {
    const what = describeChoice(spec, q);
    throw noData(
      `No ${type} period ${what} for ${companyLabel(who)}: see =KAISHA.FINANCIALS for the periods`,
      `${companyLabel(who)} に ${what} の期間（${type}）はありません：FINANCIALS で期間を確認してください`,
    );
  }
  if (!isSecondHalf(row)) return unitCell(readItem(row, itemKey), unitId, money, host);
  // H2 is not in the answer: full year − H1 of the same fiscal year (a half, never 12 months).
  const half = secondHalfValue(row, itemKey);
  if (!half.ok) {
    throw half.reason === "no_h1"
      ? noData(
          `H2 ${itemKey} of ${row.fiscal_year} for ${companyLabel(who)}: H2 is full year − H1, and H1 is not disclosed`,
          `${companyLabel(who)} の ${row.fiscal_year} 下期 ${itemKey}：下期は通期 − 上期で求めますが、上期が開示されていません`,
        )
      : noData(
          `H2 ${itemKey}: a ratio has no second-half figure (H2 is full year − H1); ask for H1 or the full year`,
          `下期の ${itemKey}：比率は通期 − 上期で求められません。H1 か通期を指定してください`,
        );
  }
  if (half.value === null) return EMPTY;
  const decimals = decimalsOfItem(body.periods, itemKey);
  return unitCell(roundToDecimals(half.value, decimals), unitId, money, host);
}

/** What `memoryLookup` reads for (set just before each synchronous use) and what it found. */
const inMemory: {
  client: KaishaClient | undefined;
  who: Company | undefined;
  ask: Company | undefined;
  /** The shared fetch under way for the answer the last miss lacked. */
  pending: SharedFetch | undefined;
} = { client: undefined, who: undefined, ask: undefined, pending: undefined };

/** An AnswerLookup over the client's memory tier, one function for every cell (no closure each). */
const memoryLookup: AnswerLookup = (type, asOf) => {
  const client = inMemory.client as KaishaClient;
  const found = client.peek("getFinancials", financialsQuery(inMemory.ask as Company, type, asOf));
  if (found === undefined)
    inMemory.pending = sharedFetchFor(client, inMemory.who as Company, type, asOf);
  return found;
};

/**
 * The value from fresh answers in memory alone, with no request, await or per-cell context: a warm
 * recalculation's cells. LACKING for anything else (an answer not in memory, a name to look up,
 * an argument or data error): the full path then answers, and says why when it fails. After a
 * LACKING, `inMemory.pending` is the shared fetch under way for the missing answer, if any.
 */
function financialFromMemory(
  company: unknown,
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
): Cell | typeof LACKING {
  inMemory.pending = undefined;
  try {
    const ref = companyRefArg(company);
    if ("name" in ref) return LACKING;
    const what = financialWhat(item, fiscalPeriod, period, quarter, unit);
    const client = getClient();
    const ask = knownFinancialsAsk(client, ref);
    if (ask === undefined) return LACKING;
    inMemory.client = client;
    inMemory.who = ref;
    inMemory.ask = ask;
    return financialValue(what, ref, memoryLookup, getHostCapabilities(), client);
  } catch {
    inMemory.pending = undefined;
    return LACKING;
  } finally {
    inMemory.client = undefined;
    inMemory.who = undefined;
    inMemory.ask = undefined;
  }
}

/** An answer a full-path call lacks: its period type and older window. */
interface Lacking {
  period: FinancialsPeriodType;
  asOf: string | undefined;
}

/** An answer fetched during one full-path call. */
interface Fetched extends Lacking {
  body: FinancialsResponse;
}

/**
 * FINANCIAL: one value. Asks /financials for the widest window (the client answers every cell of a
 * company and period type from one request, openapi.json getFinancials) and picks the row locally.
 */
export function financial(
  company: unknown,
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
  invocation?: InvocationLike,
): Promise<Cell> {
  const quick = financialFromMemory(company, item, fiscalPeriod, period, quarter, unit);
  if (quick !== LACKING) return answeredAtOnce(invocation, quick);
  const pending = inMemory.pending;
  inMemory.pending = undefined;
  // A settled fetch is read by the full path now, while it is still findable (it is forgotten a
  // turn later; waiting for it would find nothing and ask again).
  if (pending === undefined || pending.settled || inPreview(invocation)) {
    return fullFinancial(company, item, fiscalPeriod, period, quarter, unit, invocation);
  }
  // Another cell's fetch brings the answer: wait for it holding only this closure (a cold model
  // has ~90 cells per answer waiting for minutes of pacing), then answer as a warm cell would.
  const leave = joinSharedFetch(pending);
  let canceled = false;
  const onCanceled = (): void => {
    canceled = true;
    leave();
  };
  if (invocation !== undefined) invocation.onCanceled = onCanceled;
  const again = (): Promise<Cell> => {
    // Settled: the handler must not keep the fetch (and its answer) alive through the invocation.
    if (invocation !== undefined && invocation.onCanceled === onCanceled)
      invocation.onCanceled = undefined;
    // Excel dropped this cell: nothing more is asked for it (its fetch may have been abandoned).
    if (canceled) return Promise.reject(toCellError(new AbortError(), messageLang()));
    const value = financialFromMemory(company, item, fiscalPeriod, period, quarter, unit);
    inMemory.pending = undefined;
    if (value !== LACKING) return answeredAtOnce(invocation, value);
    // Not in memory (a stale copy, an error, an older window still to fetch): the full path,
    // which finds the settled fetch and reads its outcome rather than asking again.
    return fullFinancial(company, item, fiscalPeriod, period, quarter, unit, invocation);
  };
  return pending.answer.then(again, again);
}

/** FINANCIAL through `run`: fetches what the value lacks and reports every failure. */
function fullFinancial(
  company: unknown,
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
  unit: unknown,
  invocation: InvocationLike | undefined,
): Promise<Cell> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(company);
    const what = financialWhat(item, fiscalPeriod, period, quarter, unit);
    // A code or entity is already the company (resolveCompany returns it): no await per cell.
    const who = "name" in ref ? await companyOf(ctx, ref) : ref;
    const fetched: Fetched[] = [];
    let lacking: Lacking | undefined;
    const lookup: AnswerLookup = (type, asOf) => {
      for (const f of fetched) if (f.period === type && f.asOf === asOf) return f.body;
      lacking = { period: type, asOf };
      return undefined;
    };
    // Each round fetches one answer the value lacks (at most the window, 4 older windows and the
    // semiannual halves), then computes again from everything fetched so far.
    for (;;) {
      lacking = undefined;
      const value = financialValue(what, who, lookup, ctx.host, ctx.client);
      if (value !== LACKING) return value;
      // LACKING comes from a lookup that missed, which recorded what it asked.
      const need = lacking as Lacking | undefined;
      if (need === undefined) throw new Error("financialValue lacked an answer it did not ask for");
      const body = await sharedFinancials(ctx, who, need.period, need.asOf);
      fetched.push({ ...need, body });
    }
  });
}

/** The period a FINANCIAL cell reads: its fiscal year (YYYY/MM) and quarter, for the builder. */
export interface FinancialPeriodRead {
  /** the item's key, however it was typed (売上高, Sales, sales). */
  item: string;
  fiscal_year: string;
  quarter?: string;
  /** annual, quarterly, semiannual or LTM (the twelve months to this quarter). */
  type: string;
}

/**
 * Which period FINANCIAL's arguments read, from answers already in memory (no request, no
 * name look-up): the task pane's builder says "2025年3月期 売上高" beside the value. Undefined
 * when an answer is not at hand or the arguments are refused (the value preview says why).
 */
export function financialPeriodRead(
  company: unknown,
  item: unknown,
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
): FinancialPeriodRead | undefined {
  try {
    const ref = companyRefArg(company);
    if ("name" in ref) return undefined;
    const what = financialWhat(item, fiscalPeriod, period, quarter, null);
    const client = getClient();
    const ask = knownFinancialsAsk(client, ref);
    if (ask === undefined) return undefined;
    const lookup: AnswerLookup = (type, asOf) =>
      client.peek("getFinancials", financialsQuery(ask, type, asOf));
    const body = answerFor(what, lookup);
    if (body === LACKING) return undefined;
    const type = what.period.type;
    // LTM: the twelve months through the quarter the sum ends with.
    const row =
      type === "LTM"
        ? ((ltm) => (ltm.ok ? ltm.through : undefined))(
            computeLtm(body.periods, what.itemKey, what.period.spec, what.period.quarter),
          )
        : selectPeriodOnce(body.periods, what.period);
    if (row === undefined) return undefined;
    return {
      item: what.itemKey,
      fiscal_year: row.fiscal_year,
      type,
      ...(row.quarter ? { quarter: row.quarter } : {}),
    };
  } catch {
    return undefined;
  }
}
