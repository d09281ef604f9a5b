// Raw custom-function arguments read into frozen argument objects, and the queries asked from
// them, one frozen object per distinct combination: the one place arguments and queries are
// interned (every cell of a model repeats a few thousand combinations).

import { BoundedMemo } from "../../src/util/bounded-memo";
import { financialPeriodArgs, type FinancialPeriodArgs } from "../../src/excel/financial-period";
import type { Company } from "../../src/excel/args";
import { companyRefArg, type CompanyRef } from "../../src/excel/company-ref";
import { FINANCIALS_FETCH_YEARS } from "../../src/domain/financials-window";
import type { ParamsOf } from "../../src/client";

/** Bound on each table (a model uses a few dozen texts per argument; past it the table starts over). */
const LIMIT = 4096;

/** Queries by key; a model names a few hundred companies in a few shapes each (then starts over). */
const queries = new BoundedMemo<string, object>(16_384);

/**
 * The one query for `key` (the operation and its conditions, e.g. "getPeers|7203"), made frozen
 * by `make` the first time: a call finds what it fetched by the query itself, and the client keeps
 * what it learned of a frozen params object on it (client.peek).
 *
 * @example internedQuery("getPeers|7203", () => ({ security_code: "7203", limit: 20 }))
 */
export function internedQuery<Q extends object>(key: string, make: () => Q): Q {
  const known = queries.get(key);
  if (known !== undefined) return known as Q;
  return queries.set(key, Object.freeze(make())) as Q;
}

/**
 * The map under `key` in `outer`, made empty on first use: the nested tables' one get-or-create (no
 * closure: it runs for every warm cell).
 */
export function innerMap<K, L, V>(
  outer: Map<K, Map<L, V>> | WeakMap<K & object, Map<L, V>>,
  key: K,
): Map<L, V> {
  let inner = (outer as Map<K, Map<L, V>>).get(key);
  if (inner === undefined) {
    inner = new Map();
    (outer as Map<K, Map<L, V>>).set(key, inner);
  }
  return inner;
}

/** A primitive argument (a range, an entity or any object is read for each cell, never remembered). */
function isPrimitive(v: unknown): boolean {
  return v === null || (typeof v !== "object" && typeof v !== "function");
}

/**
 * Map keys compare by SameValueZero, which takes -0 for 0; -0 gets its own key so a remembered
 * reading is always that of the very value typed (2024 and "2024" differ as Map keys already).
 */
const NEGATIVE_ZERO: unique symbol = Symbol("-0");

function keyOf(v: unknown): unknown {
  return v === 0 && Object.is(v, -0) ? NEGATIVE_ZERO : v;
}

/** Period readings by their three primitive arguments, nested: no key string built per cell. */
const periodArgsTable = new Map<unknown, Map<unknown, Map<unknown, FinancialPeriodArgs>>>();
/** Readings held in periodArgsTable (past LIMIT it starts over, as BoundedMemo does). */
let periodArgsCount = 0;

/**
 * FINANCIAL's `fiscal_period`, `period` and `quarter` (src/excel/financial-period.ts
 * financialPeriodArgs): one frozen object per triple of primitive texts, so the answer index can
 * key a row choice by it. A refused triple is not remembered: its error names the cell's own text.
 *
 * @example periodArgsOf("FY-1", null, null) === periodArgsOf("FY-1", null, null) // true
 */
export function periodArgsOf(
  fiscalPeriod: unknown,
  period: unknown,
  quarter: unknown,
): FinancialPeriodArgs {
  if (!isPrimitive(fiscalPeriod) || !isPrimitive(period) || !isPrimitive(quarter))
    return financialPeriodArgs(fiscalPeriod, period, quarter);
  const a = keyOf(fiscalPeriod);
  const b = keyOf(period);
  const c = keyOf(quarter);
  const known = periodArgsTable.get(a)?.get(b)?.get(c);
  if (known !== undefined) return known;
  const read = financialPeriodArgs(fiscalPeriod, period, quarter);
  Object.freeze(read.spec);
  Object.freeze(read);
  if (periodArgsCount >= LIMIT) {
    periodArgsTable.clear();
    periodArgsCount = 0;
  }
  innerMap(innerMap(periodArgsTable, a), b).set(c, read);
  periodArgsCount += 1;
  return read;
}

/** Bound on remembered code texts and numbers (a 500-company model types each code in a form or two). */
const CODE_LIMIT = 8192;
/**
 * Company codes read, by the text or number typed (a Map tells 7203 from "7203"; -0 has its own
 * key, keyOf). Read with one Map get by every warm cell: no call into another module.
 */
const codes = new Map<unknown, Company>();

/**
 * The `company` argument read (src/excel/company-ref.ts companyRefArg), one frozen Company per code
 * text or number: every cell of a company's row passes the same code. Names are not remembered
 * (whether one is refused depends on the key currently set, see containsSecret), nor a number
 * refused (-0 or NaN among them), nor anything but a text or a number (an entity, a range).
 *
 * @example internedCompanyRef("7203.T", "company") === internedCompanyRef("7203.T", "company") // true
 */
export function internedCompanyRef(value: unknown, argument = "company"): CompanyRef {
  if (typeof value !== "string" && typeof value !== "number") return companyRefArg(value, argument);
  const key = keyOf(value);
  const known = codes.get(key);
  if (known !== undefined) return known;
  const ref = companyRefArg(value, argument);
  if ("name" in ref) return ref;
  if (codes.size >= CODE_LIMIT) codes.clear();
  const made = Object.freeze(ref);
  codes.set(key, made);
  return made;
}

/** One text table per reader (a field list, an item key): the text → what it read. */
const textTables = new WeakMap<(text: unknown) => unknown, BoundedMemo<string, unknown>>();

/**
 * `read(text)` remembered per text for a module-level `read` (an item key, a field): a model
 * repeats the same 60 texts in every company's cells. Anything but a string is read every time.
 */
export function internedText<V>(read: (text: unknown) => V, text: unknown): V {
  if (typeof text !== "string") return read(text);
  let table = textTables.get(read);
  if (table === undefined) {
    table = new BoundedMemo<string, unknown>(LIMIT);
    textTables.set(read, table);
  }
  const known = table.get(text);
  if (known !== undefined) return known as V;
  return table.set(text, read(text)) as V;
}

/** Field lists read, per allowed-key list (functions/common.ts fieldList), by their whole text. */
const fieldLists = new WeakMap<readonly string[], BoundedMemo<string, readonly string[]>>();

/** A field list read before for this allowed-key list and key text: a copy (callers change theirs). */
export function knownFieldList(allowed: readonly string[], key: string): string[] | undefined {
  return fieldLists.get(allowed)?.get(key)?.slice();
}

/** Remembers a field list read (successes only: a refused text gets its own message each time). */
export function rememberFieldList(
  allowed: readonly string[],
  key: string,
  keys: readonly string[],
) {
  let table = fieldLists.get(allowed);
  if (table === undefined) {
    table = new BoundedMemo<string, readonly string[]>(LIMIT);
    fieldLists.set(allowed, table);
  }
  table.set(key, keys.slice());
}

/** Argument objects by their parts (frozen objects and strings), nested so no key string is built. */
type Nest<V> = WeakMap<object, Map<string, Map<string, V>>>;

/**
 * The one frozen argument object for these parts (`make` is a module-level function, called once
 * per combination). A part that is not frozen (a company name, read anew for each cell) gets a new
 * object each time: it cannot key anything safely.
 */
export function internedArgs<P extends object, V extends object>(
  nest: Nest<V>,
  part: P,
  second: string,
  third: string,
  make: (part: P, second: string, third: string) => V,
): V {
  if (!Object.isFrozen(part)) return Object.freeze(make(part, second, third));
  const byThird = innerMap(innerMap(nest, part), second);
  const known = byThird.get(third);
  if (known !== undefined) return known;
  const made = Object.freeze(make(part, second, third));
  byThird.set(third, made);
  return made;
}

/** A table for `internedArgs`. */
export function argsTable<V extends object>(): Nest<V> {
  return new WeakMap();
}

/** Readings by five raw primitive arguments, one nested Map per position (no key string built). */
interface FiveTable<V> {
  root: Map<unknown, Map<unknown, Map<unknown, Map<unknown, Map<unknown, V>>>>>;
  count: number;
}

/** A table for `internedFive`. */
export function fiveTable<V>(): FiveTable<V> {
  return { root: new Map(), count: 0 };
}

/**
 * Combinations remembered per five-argument table: a model asks a few thousand combinations of
 * item, period and unit (past this the table starts over).
 */
const FIVE_LIMIT = 65_536;

/**
 * The one frozen reading of five raw arguments (FINANCIAL's item, fiscal period, period, quarter
 * and unit): `read` once per combination of primitive values, the same object after, found by
 * five Map gets (a warm cell's whole argument reading but its company). Anything but primitives
 * (a range, an entity) is read every time; a refused combination (`read` throws) is never kept.
 *
 * @example internedFive(table, read, "sales", "FY-1", null, null, null) === internedFive(table, read, "sales", "FY-1", null, null, null) // true
 */
export function internedFive<V extends object>(
  table: FiveTable<V>,
  read: (b: unknown, c: unknown, d: unknown, e: unknown, f: unknown) => V,
  b: unknown,
  c: unknown,
  d: unknown,
  e: unknown,
  f: unknown,
): V {
  if (!isPrimitive(b) || !isPrimitive(c) || !isPrimitive(d) || !isPrimitive(e) || !isPrimitive(f))
    return read(b, c, d, e, f);
  const kb = keyOf(b);
  const kc = keyOf(c);
  const kd = keyOf(d);
  const ke = keyOf(e);
  const kf = keyOf(f);
  const known = table.root.get(kb)?.get(kc)?.get(kd)?.get(ke)?.get(kf);
  if (known !== undefined) return known;
  const made = Object.freeze(read(b, c, d, e, f));
  if (table.count >= FIVE_LIMIT) {
    table.root.clear();
    table.count = 0;
  }
  innerMap(innerMap(innerMap(innerMap(table.root, kb), kc), kd), ke).set(kf, made);
  table.count += 1;
  return made;
}

/** A table function's argument objects by its raw primitive arguments, one nested Map per position. */
export interface RawArgsTable {
  root: Map<unknown, unknown>;
  count: number;
}

/** A table for `internedRaw`. */
export function rawArgsTable(): RawArgsTable {
  return { root: new Map(), count: 0 };
}

/** A raw argument that cannot be a key (an entity, a large range): the reading is not kept. */
const NOT_KEYED: unique symbol = Symbol("not keyed");
/** Cells of an array argument kept as one key at most (a field list is a handful). */
const MAX_KEYED_CELLS = 256;

/**
 * A value a cell of an array argument can hold as key text. A bigint or a symbol (never from
 * Excel) is not one: its text is a number's or another symbol's (7203n and 7203 both "7203"), so
 * a call with it would be given the reading of the other.
 */
function isCellValue(cell: unknown): boolean {
  return isPrimitive(cell) && typeof cell !== "bigint" && typeof cell !== "symbol";
}

/** One cell of an array argument as key text: strings quoted ("2024" is not 2024), -0 itself. */
function cellKey(cell: unknown): string {
  return typeof cell === "string"
    ? JSON.stringify(cell)
    : Object.is(cell, -0)
      ? "-0"
      : String(cell);
}

/**
 * A Map key for one raw argument: a primitive as itself; an array constant or a range's values
 * (Excel passes a new 2-D array on every call, `{"per","roe"}` included) as a text naming each
 * row and cell, so equal arrays share one reading; NOT_KEYED for anything else.
 */
function rawKey(value: unknown): unknown {
  if (isPrimitive(value)) return keyOf(value);
  if (!Array.isArray(value)) return NOT_KEYED;
  // "\u0000" starts no text a user can type (Excel has no CHAR(0)): no string argument collides.
  let key = "\u0000";
  let cells = 0;
  for (const row of value) {
    if (!Array.isArray(row)) return NOT_KEYED;
    key += "\u0001";
    for (const cell of row) {
      cells += 1;
      if (!isCellValue(cell) || cells > MAX_KEYED_CELLS) return NOT_KEYED;
      key += `\u0002${cellKey(cell)}`;
    }
  }
  return key;
}

/**
 * The one frozen argument object for these raw arguments (functions/cells/define-table.ts): read
 * by `read` once per combination of values (primitives, and small arrays by their cells), the
 * same object after. An entity or a large range among them is read anew every time, and so is a
 * reading `remembered` refuses (a company name: whether it is refused depends on the key
 * currently set). A refused combination (ArgumentError) is never remembered: its message names
 * the cell's own text.
 *
 * @example internedRaw(table, ["7203", [["per"]]], read, always) === internedRaw(table, ["7203", [["per"]]], read, always)
 */
export function internedRaw<V extends object>(
  table: RawArgsTable,
  raw: readonly unknown[],
  read: (raw: readonly unknown[]) => V,
  remembered: (args: V) => boolean,
): V {
  const keys = raw.map(rawKey);
  if (keys.includes(NOT_KEYED)) return Object.freeze(read(raw));
  let node = table.root;
  const last = keys.length - 1;
  for (let i = 0; i < last; i++)
    node = innerMap(node as Map<unknown, Map<unknown, unknown>>, keys[i]);
  const tail = keys[last];
  const known = node.get(tail) as V | undefined;
  if (known !== undefined) return known;
  const made = Object.freeze(read(raw));
  if (!remembered(made)) return made;
  if (table.count >= LIMIT) {
    table.root.clear();
    table.count = 0;
    return made;
  }
  node.set(tail, made);
  table.count += 1;
  return made;
}

/** The period types FINANCIAL fetches (LTM is computed from quarterly rows). */
export type FinancialsPeriodType = "annual" | "quarterly" | "semiannual";

type FinancialsQuery = ParamsOf<"getFinancials">;

/**
 * A company's /financials queries: the latest window's by period type as plain fields (a warm
 * FINANCIAL cell reads one after a single Map get), older windows by period type and as_of.
 */
interface CompanyQueries {
  annual: FinancialsQuery | undefined;
  quarterly: FinancialsQuery | undefined;
  semiannual: FinancialsQuery | undefined;
  older: Map<FinancialsPeriodType, Map<string, FinancialsQuery>> | undefined;
}

/** /financials queries by company code. */
const financialsQueries = new Map<string, CompanyQueries>();
/** A model names a few hundred companies; past this many the map starts over. */
const MAX_QUERY_CODES = 20_000;

/**
 * The /financials query for a company, period type and older window (`asOf`), always the widest
 * window (openapi.json getFinancials: one request answers every year). The same frozen object each
 * time, so the client recognises it without rebuilding its signature (a model asks it for 60 × 10
 * cells), and the cells waiting for its answer find one flight (src/client/answer-flights.ts).
 *
 * @example financialsQuery({ security_code: "7203" }, "annual", undefined) // { security_code: "7203", period: "annual", years: 30 }
 */
export function financialsQuery(
  who: Company,
  period: FinancialsPeriodType,
  asOf: string | undefined,
): FinancialsQuery {
  const code = "security_code" in who ? who.security_code : who.edinet_code;
  // Plain gets, no closures: every warm FINANCIAL cell asks this at least once.
  let queries = financialsQueries.get(code);
  if (queries === undefined) {
    if (financialsQueries.size >= MAX_QUERY_CODES) financialsQueries.clear();
    queries = { annual: undefined, quarterly: undefined, semiannual: undefined, older: undefined };
    financialsQueries.set(code, queries);
  }
  if (asOf === undefined) {
    const latest = queries[period];
    if (latest !== undefined) return latest;
    const made = makeFinancialsQuery(who, code, period);
    queries[period] = made;
    return made;
  }
  const byWindow = innerMap<FinancialsPeriodType, string, FinancialsQuery>(
    (queries.older ??= new Map()),
    period,
  );
  const known = byWindow.get(asOf);
  if (known !== undefined) return known;
  const made = makeFinancialsQuery(who, code, period, asOf);
  byWindow.set(asOf, made);
  return made;
}

/** A /financials query as the client sends it: the code asked, then the window. */
function makeFinancialsQuery(
  who: Company,
  code: string,
  period: FinancialsPeriodType,
  asOf?: string,
): FinancialsQuery {
  const codes = "security_code" in who ? { security_code: code } : { edinet_code: code };
  return Object.freeze({
    ...codes,
    period,
    years: FINANCIALS_FETCH_YEARS,
    ...(asOf !== undefined ? { as_of: asOf } : {}),
  }) as FinancialsQuery;
}

/** A company as typed and the window asked of it (openapi.json getFinancials period, years, as_of). */
export interface FinancialsAsk {
  readonly who: Company;
  readonly params: FinancialsQuery;
}

const asks = argsTable<FinancialsAsk>();

function makeAsk(who: Company, period: string, asOf: string): FinancialsAsk {
  const window = asOf === "" ? undefined : asOf;
  return { who, params: financialsQuery(who, period as FinancialsPeriodType, window) };
}

/**
 * The one frozen ask for a company as typed and a window, always the widest (a company typed as
 * a code: the same object each time; a looked-up name: a new one). Its params are the company's
 * financialsQuery: the table and the FINANCIAL cells of a company ask the client one object.
 *
 * @example financialsAsk({ security_code: "7203" }, "annual", undefined).params // { security_code: "7203", period: "annual", years: 30 }
 */
export function financialsAsk(
  who: Company,
  period: FinancialsPeriodType,
  asOf: string | undefined,
): FinancialsAsk {
  return internedArgs(asks, who, period, asOf ?? "", makeAsk);
}
