// XBRL over GET /disclosures/{doc_id} (openapi.json getDisclosure): on the runtime page, a warm cell answers at once; DOCUMENT and SECTION (functions/document.ts) are a lazy chunk that shares its query and fact cells.

import type { DisclosureXbrlFact } from "../src/contract";
import type { ResponseOf } from "../src/client";
import { docIdArg, optionalText, requiredText } from "../src/excel/args";
import { unitCell } from "../src/excel/number-formats";
import { dateCell, type Cell, type HostCapabilities } from "../src/excel/values";
import { noData } from "./excel-errors";
import type { InvocationLike } from "./run";
import { defineCell, LACKING, type CellResult } from "./cells/define-cell";
import { argsTable, internedArgs, internedQuery } from "./cells/interned-args";
import { ownValue } from "../src/excel/own-key";

export const PARTS = ["meta", "sections", "xbrl", "available_sections"] as const;
export type Part = (typeof PARTS)[number];
/**
 * openapi.json getDisclosure: `include` groups. DOCUMENT asks for the part it shows plus the small
 * `meta` group, whose filing date is the title row's as-of (a document is as of its filing, not of
 * today); XBRL asks exactly as DOCUMENT "xbrl" does, so the two share one cached answer.
 */
const INCLUDE: Readonly<Record<Part, string>> = {
  meta: "meta",
  sections: "meta,sections",
  xbrl: "meta,xbrl_facts",
  available_sections: "meta,available_sections",
};

/** A document query: the document and the `include` groups asked (one frozen object each). */
export type DocumentQuery = Readonly<{ doc_id: string; include: string }>;

export function documentQuery(id: string, part: Part): DocumentQuery {
  const include = INCLUDE[part];
  return internedQuery(`getDisclosure|${id}|${include}`, () => ({ doc_id: id, include }));
}

/**
 * XBRL unit ids whose display is certain -> contract units (number-formats.ts). `pure` is left
 * plain: it is a ratio in some taxonomies' facts and a percentage in others.
 */
const XBRL_UNITS: Readonly<Record<string, string>> = {
  jpy: "jpy",
  jpypershares: "jpy_per_share",
  jpypershare: "jpy_per_share",
  shares: "shares",
};

/**
 * An XBRL fact's value as a cell: numbers stay numbers (yen and per-share values formatted as
 * such where the host has formatted numbers), a date-typed fact ("2026-03-31", e.g.
 * CurrentFiscalYearEndDateDEI) becomes a date serial, other text stays text (codes, names).
 */
export function factCell(fact: DisclosureXbrlFact, host: HostCapabilities): Cell {
  const value = fact.value;
  if (typeof value === "string" && ISO_DAY.test(value)) return dateCell(value, host);
  const unit = fact.unit === null ? undefined : ownValue(XBRL_UNITS, fact.unit.toLowerCase());
  return unitCell(value, unit, "jpy", host);
}
export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function sameName(element: string, wanted: string): boolean {
  const e = element.toLowerCase();
  const w = wanted.toLowerCase();
  return e === w || e.endsWith(`:${w}`) || e.endsWith(`_${w}`);
}

type XbrlQuery = DocumentQuery;

/** XBRL asks exactly as DOCUMENT "xbrl" does: the same frozen query, one cached answer. */
function xbrlQuery(id: string): XbrlQuery {
  return documentQuery(id, "xbrl");
}

/** An XBRL cell's arguments: the document's query, the element name, the context asked ("": none). */
interface XbrlArgs {
  query: XbrlQuery;
  name: string;
  context: string;
}

const xbrlArgs = argsTable<XbrlArgs>();

function makeXbrlArgs(query: XbrlQuery, name: string, context: string): XbrlArgs {
  return { query, name, context };
}

function parseXbrl(docId: unknown, element: unknown, context: unknown): XbrlArgs {
  const id = docIdArg(docId);
  const name = requiredText(
    element,
    "element",
    { en: "an XBRL element name, e.g. NetSales", ja: "XBRL 要素名（NetSales など）" },
    300,
  );
  const ctxName = optionalText(context, "context", 300) ?? "";
  return internedArgs(xbrlArgs, xbrlQuery(id), name, ctxName, makeXbrlArgs);
}

/**
 * XBRL: one fact's value. `element` matches the element name with or without its prefix
 * ("NetSales" finds "jppfs_cor:NetSales"); `context` picks among contexts, else the current-year
 * context is preferred, else the first fact.
 */
const xbrlCell = defineCell<XbrlArgs, XbrlQuery, XbrlQuery, ResponseOf<"getDisclosure">>({
  parse: parseXbrl,
  needs: {
    // The document is the subject: nothing to look up.
    subjectAtHand: (args) => args.query,
    subject: (_ctx, args) => args.query,
    first: (_args, query) => [query],
    peek: (client, query) => client.peek("getDisclosure", query),
    fetch: (ctx, _args, query) => ctx.client.disclosure(query, ctx.options),
  },
  compute({ name, context }, query, answers, host) {
    const body = answers.read(query);
    if (body === undefined) return LACKING;
    const id = query.doc_id;
    const facts = (body.xbrl_facts ?? []).filter((f) => sameName(f.element_name, name));
    const pick =
      context !== ""
        ? facts.find((f) => (f.context ?? "").toLowerCase() === context.toLowerCase())
        : (facts.find((f) =>
            /^current(year|quarter)?(duration|instant)?$/i.test(f.context ?? ""),
          ) ??
          facts.find((f) => /current/i.test(f.context ?? "")) ??
          facts[0]);
    if (pick === undefined) {
      throw noData(
        `No XBRL fact ${name}${context ? ` in context ${context}` : ""} in ${id}: see =KAISHA.DOCUMENT("${id}","xbrl")`,
        `${id} に XBRL 要素 ${name}${context ? `（${context}）` : ""} はありません：DOCUMENT("${id}","xbrl") で確認してください`,
      );
    }
    return factCell(pick, host);
  },
});

export function xbrl(
  docId: unknown,
  element: unknown,
  context: unknown,
  invocation?: InvocationLike,
): CellResult {
  return xbrlCell(invocation, docId, element, context);
}
