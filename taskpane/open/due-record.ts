// The workbook's due record: until when each company's answers behind its KAISHA cells cannot have changed, kept in the document so a desktop open recalculates only the cells whose data can have.
//
// Excel on Windows and Mac shows the values saved in the file at open (taskpane/open/morning-open.ts).
// A cell needs recalculating at open only when its data can have changed since it was calculated:
// its answers' freshness (src/client/freshness.ts lifetimeOf: the next close for prices, the
// filing calendar and weekly slot for statements) has run out. That expiry is decided by the client
// on each answer it reads (src/client/cache.ts CacheEntry.freshUntil); the runtime keeps the
// earliest per company and operation in the document's settings (`DUE_RECORD_SETTING`), saved with
// the workbook, so the next open reads it without reading a single stored answer. A cell the record
// cannot vouch for (no record, an error shown, a formula other than one plain KAISHA call, a company
// it cannot tell) is recalculated, as every cell was before.

import { pricesExpiry } from "../../src/client";
import type { OperationId } from "../../src/contract";
import { parseKaishaCall } from "../state/refresh-cost";
import type { OpenCell } from "./open-cell";

/**
 * The document setting's name (Office.context.document.settings: per add-in and document, saved
 * with the workbook). It holds due times by company and operation, never a key or a server.
 */
export const DUE_RECORD_SETTING = "kaisha.dueRecord";

/** `due["7203|getPrices"]`: until then the answers of 7203's prices behind its cells are fresh. */
export interface DueRecord {
  v: 1;
  /** By `groupKey`: the earliest expiry of the answers read. @unit ms since epoch */
  due: Record<string, number>;
}

/**
 * The operations whose answers a function's cells read (functions/*.ts: FINANCIAL and FINANCIALS
 * one /financials answer, PRICE and PRICES /securities/{code}/prices, DIVIDENDS /dividends or the
 * financials it falls back to, SEGMENTS /segments, VALUATION /valuations). Any other function:
 * not vouched for, its cells are recalculated.
 */
const OPERATIONS_OF: Readonly<Record<string, readonly OperationId[]>> = {
  FINANCIAL: ["getFinancials"],
  FINANCIALS: ["getFinancials"],
  PRICE: ["getPrices"],
  PRICES: ["getPrices"],
  DIVIDENDS: ["getDividends", "getFinancials"],
  SEGMENTS: ["getSegments"],
  VALUATION: ["getValuations"],
};

/** The operation of a stored answer's key: its path after the partition's id (cache.ts cacheKey). */
const KEY_PATH =
  /\/(?:securities\/([^/?]+)\/(prices)|(financials|dividends|segments|valuations))\?(.*)$/;
const OPERATION_OF_PATH: Readonly<Record<string, OperationId>> = {
  prices: "getPrices",
  financials: "getFinancials",
  dividends: "getDividends",
  segments: "getSegments",
  valuations: "getValuations",
};

/**
 * A stored answer's operation, query and the codes its key names it by (the code in the path, the
 * `security_code`, `edinet_code` or `code` asked), from its cache key alone; undefined for an
 * operation the record does not follow.
 */
function keyedAnswer(
  key: string,
):
  | { operation: OperationId; query: URLSearchParams; codes: (string | null | undefined)[] }
  | undefined {
  const m = KEY_PATH.exec(key);
  const operation = m === null ? undefined : OPERATION_OF_PATH[m[2] ?? m[3] ?? ""];
  if (m === null || operation === undefined) return undefined;
  const query = new URLSearchParams(m[4] ?? "");
  const codes = [
    m[1] === undefined ? undefined : decodeURIComponent(m[1]),
    query.get("security_code"),
    query.get("edinet_code"),
    query.get("code"),
  ];
  return { operation, query, codes };
}

/** "7203|getPrices": a company's code as written (upper case) and an operation. */
function groupKey(code: string, operation: OperationId): string {
  return `${code.toUpperCase()}|${operation}`;
}

/** The record a document setting holds, or undefined when it is absent or not one this version wrote. */
export function parseDueRecord(raw: unknown): DueRecord | undefined {
  const text = typeof raw === "string" ? raw : undefined;
  let value: unknown;
  try {
    value = text === undefined ? raw : JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = value as Partial<DueRecord> | null;
  if (r === null || typeof r !== "object" || r.v !== 1) return undefined;
  const due = r.due;
  if (due === null || typeof due !== "object") return undefined;
  const out: Record<string, number> = {};
  for (const [k, t] of Object.entries(due))
    if (typeof t === "number" && Number.isFinite(t)) out[k] = t;
  return { v: 1, due: out };
}

/** An error Excel shows (Range.values gives its text: "#N/A", "#BUSY!") or a rich error value. */
function isErrorValue(value: unknown): boolean {
  if (typeof value === "string") return /^#[A-Z0-9/!?._]+/i.test(value);
  if (value instanceof Error) return true;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as { type?: unknown; code?: unknown; errorType?: unknown };
  return v.type === "Error" || typeof v.code === "string" || typeof v.errorType === "string";
}

/** A one-cell reference: `A2`, `$A$2`, `Codes!A2`, `'My codes'!$A2`. */
const CELL_REF = /^(?:('(?:[^']|'')+'|[^'!,()"\s]+)!)?\$?([A-Z]{1,3})\$?(\d+)$/i;

/**
 * What the cell's company argument is: a code written in the formula, or the cell it refers to
 * ("Sheet!A2"), read at open. Undefined for anything else (an expression, a range, a name).
 *
 * @example companyArgument({ sheet: "Model", address: "C2", formula: "=KAISHA.PRICE($A2)" }) // { ref: "Model!A2" }
 */
export function companyArgument(
  cell: Pick<OpenCell, "sheet" | "formula">,
): { code: string } | { ref: string } | undefined {
  const call = parseKaishaCall(cell.formula);
  const first = call?.args[0]?.trim();
  if (first === undefined || first === "") return undefined;
  const quoted = /^"((?:[^"]|"")*)"$/.exec(first);
  if (quoted !== null) return { code: (quoted[1] ?? "").replace(/""/g, '"').trim() };
  if (/^\d+$/.test(first)) return { code: first };
  const ref = CELL_REF.exec(first);
  if (ref === null) return undefined;
  const sheet =
    ref[1] === undefined ? cell.sheet : ref[1].replace(/^'(.*)'$/, "$1").replace(/''/g, "'");
  return { ref: `${sheet}!${(ref[2] ?? "").toUpperCase()}${ref[3] ?? ""}` };
}

/**
 * The groups (`groupKey`) whose answers a cell shows, or undefined when the record cannot vouch
 * for it: a formula other than one plain KAISHA call (`=IFERROR(KAISHA.PRICE(…),0)` hides an
 * error), a function not in OPERATIONS_OF, or a company not told (`resolved` gives a reference's
 * value, read at open).
 */
function groupsOf(
  cell: Pick<OpenCell, "sheet" | "formula">,
  resolved: ReadonlyMap<string, unknown>,
): string[] | undefined {
  const call = parseKaishaCall(cell.formula);
  if (call === undefined) return undefined;
  const plain =
    cell.formula.slice(0, call.start).trim() === "=" && cell.formula.slice(call.end).trim() === "";
  const operations = OPERATIONS_OF[call.name];
  if (!plain || operations === undefined) return undefined;
  const arg = companyArgument(cell);
  const value = arg === undefined ? undefined : "code" in arg ? arg.code : resolved.get(arg.ref);
  const code =
    typeof value === "number" && Number.isInteger(value)
      ? String(value)
      : typeof value === "string"
        ? value.trim()
        : "";
  if (code === "" || code.startsWith("#")) return undefined;
  return operations.map((op) => groupKey(code, op));
}

/**
 * Until when the cell's figures cannot have changed by `record`: the earliest due time of its
 * groups the record holds; undefined when it holds none of them.
 */
function dueOf(groups: readonly string[], record: DueRecord): number | undefined {
  let due: number | undefined;
  for (const g of groups) {
    const t = record.due[g];
    if (t !== undefined) due = due === undefined ? t : Math.min(due, t);
  }
  return due;
}

/** Which cells an open recalculates, and which it leaves showing their saved values. */
interface OpenPlan {
  recalculate: OpenCell[];
  /** Cells left as saved: the record vouches their data cannot have changed yet. */
  kept: OpenCell[];
  /** Groups of the kept cells: their record entries stand (`mergeDueRecord`). */
  keptGroups: Set<string>;
}

/**
 * The groups this store holds answers of, from their keys alone (the persistent tier's index: no
 * answer read): the code in the path or query the answer was asked by.
 */
export function storedGroups(keys: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const key of keys) {
    const answer = keyedAnswer(key);
    if (answer === undefined) continue;
    for (const code of answer.codes)
      if (typeof code === "string" && code !== "") out.add(groupKey(code, answer.operation));
  }
  return out;
}

/**
 * The open's plan: every cell recalculated unless `record` vouches for it (its groups due after
 * `now`, its saved value not an error) and, given `stored` (`storedGroups`), this computer holds an
 * answer behind it: a workbook saved on another computer, or after this store was cleared, shows
 * answers this store never gave, so its cells are recalculated. Without a record every cell is.
 *
 * @example planOpen(cells, undefined, new Map(), Date.now()).recalculate.length === cells.length // true
 */
export function planOpen(
  cells: readonly OpenCell[],
  record: DueRecord | undefined,
  resolved: ReadonlyMap<string, unknown>,
  now: number,
  stored?: ReadonlySet<string>,
): OpenPlan {
  const plan: OpenPlan = { recalculate: [], kept: [], keptGroups: new Set() };
  // A model repeats its formulas (a row's per company, a column's per item): each text once.
  const known = new Map<string, string[] | undefined>();
  const groupsOfCell = (cell: OpenCell): string[] | undefined => {
    const text = `${cell.sheet}\n${cell.formula}`;
    if (known.has(text)) return known.get(text);
    const groups = groupsOf(cell, resolved);
    known.set(text, groups);
    return groups;
  };
  for (const cell of cells) {
    const groups = record === undefined ? undefined : groupsOfCell(cell);
    const due = groups === undefined || record === undefined ? undefined : dueOf(groups, record);
    const held = stored === undefined || (groups ?? []).some((g) => stored.has(g));
    if (
      groups === undefined ||
      due === undefined ||
      due <= now ||
      !held ||
      isErrorValue(cell.value)
    ) {
      plan.recalculate.push(cell);
      continue;
    }
    plan.kept.push(cell);
    for (const g of groups) plan.keptGroups.add(g);
  }
  return plan;
}

/** What the runtime holds of a stored answer: its body, when it came, the expiry the client decided. */
interface HeldAnswer {
  body: unknown;
  storedAt: number;
  freshUntil?: number;
}

/**
 * An answer's expiry where the client decided none (`sessionDues`): prices by the client's own
 * rule (src/client/freshness.ts pricesExpiry: "up to latest" until the next close, a closed range
 * until its company's weekly slot), which needs nothing but the request and its time. Anything
 * else: due.
 */
function undecidedExpiry(
  operation: OperationId,
  query: URLSearchParams,
  code: string | undefined,
  storedAt: number,
): number {
  if (operation !== "getPrices") return 0;
  return pricesExpiry({ code, to: query.get("to") ?? undefined }, storedAt);
}

/**
 * The earliest expiry per group of the answers this runtime holds in memory (`entries`: cache key
 * and entry, src/client/cache.ts), under every code that names its company (the code asked and the
 * codes the answer gives): the expiry the client decided when a cell read it from memory
 * (CacheEntry.freshUntil), else `undecidedExpiry` (a statement: due). An answer no cell has read
 * from memory (cells that shared its request took it from the response; a background check stored
 * it) has no expiry decided, and skipping it would let another answer of the group vouch for cells
 * it does not show (bench: the LTM cells' quarterly answer, the morning after results). An expiry decided before a results day
 * was learned is the earlier one (src/client/results-day-history.ts settles the daily checks from
 * the period's end first), so it errs towards recalculating too.
 */
export function sessionDues(entries: Iterable<readonly [string, HeldAnswer]>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, entry] of entries) {
    const answer = keyedAnswer(key);
    if (answer === undefined) continue;
    const { operation, query } = answer;
    const until =
      entry.freshUntil ??
      undecidedExpiry(operation, query, answer.codes[0] ?? undefined, entry.storedAt);
    const body = entry.body as { edinet_code?: unknown; security_code?: unknown } | null;
    const codes: unknown[] = [...answer.codes, body?.edinet_code, body?.security_code];
    for (const code of new Set(codes)) {
      if (typeof code !== "string" || code === "") continue;
      const g = groupKey(code, operation);
      const was = out.get(g);
      out.set(g, was === undefined ? until : Math.min(was, until));
    }
  }
  return out;
}

/**
 * The record to keep: this session's due times, and for the groups of cells the open left as
 * saved (`keptGroups`) the earlier of the old record's and this session's (those cells still show
 * what the old record vouched for). A group due by `now` is left out: absent, it is recalculated
 * at the next open as a due one would be.
 *
 * @example mergeDueRecord(undefined, new Map([["7203|getPrices", t]]), new Set(), now).due // { "7203|getPrices": t }
 */
export function mergeDueRecord(
  old: DueRecord | undefined,
  session: ReadonlyMap<string, number>,
  keptGroups: ReadonlySet<string>,
  now: number,
): DueRecord {
  const due: Record<string, number> = {};
  for (const [g, t] of session) due[g] = t;
  for (const g of keptGroups) {
    const before = old?.due[g];
    if (before === undefined) continue;
    const mine = due[g];
    due[g] = mine === undefined ? before : Math.min(mine, before);
  }
  for (const g of Object.keys(due)) if ((due[g] ?? 0) <= now) delete due[g];
  return { v: 1, due };
}
