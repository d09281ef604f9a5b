// DOCUMENT, XBRL and SECTION over GET /disclosures/{doc_id} and its sections (openapi.json
// getDisclosure, getDisclosureSection).

import type { DisclosureDocumentSection, DisclosureXbrlFact } from "../src/contract";
import type { ParamsOf, ResponseOf } from "../src/client/types";
import { SECTION_IDS } from "../src/contract/disclosure-sections";
import {
  docIdArg,
  headersArg,
  optionalChoice,
  optionalText,
  requiredChoice,
  requiredText,
  type HeaderMode,
} from "../src/excel/args";
import { jstIsoDate } from "../src/excel/dates";
import type { Column } from "../src/excel/shape";
import { htmlToText, splitForCells, truncateForCell } from "../src/excel/text";
import { unitCell } from "../src/excel/number-formats";
import { dateCell, EMPTY, type Cell, type HostCapabilities } from "../src/excel/values";
import {
  dateColumn,
  dateTimeColumn,
  noResults,
  plainColumn,
  table,
  titleRow,
  type Shaping,
} from "./common";
import { noData } from "./excel-errors";
import type { InvocationLike } from "./run";
import { defineCell, LACKING } from "./cells/define-cell";
import { argsTable, internedArgs } from "./cells/interned-args";
import { defineTable } from "./cells/define-table";
import { answersOf, internedQuery } from "./cells/queries";

const PARTS = ["meta", "sections", "xbrl", "available_sections"] as const;
type Part = (typeof PARTS)[number];
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
type DocumentQuery = Readonly<{ doc_id: string; include: string }>;

function documentQuery(id: string, part: Part): DocumentQuery {
  const include = INCLUDE[part];
  return internedQuery(`getDisclosure|${id}|${include}`, () => ({ doc_id: id, include }));
}

/** DOCUMENT's arguments read. */
interface DocumentArgs {
  id: string;
  which: Part;
  mode: HeaderMode;
}

/** DOCUMENT: meta (one row), sections (id, title, text), xbrl (facts) or available_sections. */
const documentTable = defineTable<DocumentArgs, string, DocumentQuery, ResponseOf<"getDisclosure">>(
  {
    parse: ([docId, part, headers]) => ({
      id: docIdArg(docId),
      which: optionalChoice(part, "part", PARTS, { xbrl_facts: "xbrl" }) ?? "meta",
      mode: headersArg(headers),
    }),
    // The document is the subject: nothing to look up.
    subjectAtHand: (args) => args.id,
    subject: (_ctx, args) => args.id,
    needs: (args, id) => [documentQuery(id, args.which)],
    compute({ which, mode }, id, answers, ctx) {
      const body = answers.read(documentQuery(id, which));
      if (body === undefined) return LACKING;
      const title = titleRow(
        ctx,
        body,
        id,
        `document ${which}`,
        dateCell(body.meta?.filing_date ?? jstIsoDate(), ctx.host),
        body.attribution,
      );
      switch (which) {
        case "meta": {
          if (body.meta === undefined) throw noResults();
          const columns = [
            plainColumn("doc_id"),
            plainColumn("source"),
            plainColumn("edinet_code"),
            plainColumn("title"),
            plainColumn("document_type"),
            dateColumn("filing_date", ctx),
            dateTimeColumn("disclosed_at", ctx),
            dateTimeColumn("available_for_redistribution_at", ctx),
            plainColumn("source_url"),
            plainColumn("pdf_url"),
          ];
          return table(
            ctx,
            columns,
            [body.meta as unknown as Record<string, unknown>],
            mode,
            title,
          );
        }
        case "sections": {
          const rows = body.sections ?? [];
          if (rows.length === 0) throw noResults();
          const columns: Column<DisclosureDocumentSection>[] = [
            plainColumn("section_id") as Column<DisclosureDocumentSection>,
            plainColumn("section_title_raw") as Column<DisclosureDocumentSection>,
            {
              key: "text",
              label: "本文",
              value: (s) => truncateForCell(htmlToText(s.html_or_text)),
            },
          ];
          return table(ctx, columns, rows, mode, title);
        }
        case "xbrl": {
          const rows = body.xbrl_facts ?? [];
          if (rows.length === 0) throw noResults();
          // `period` is the fact's date (an instant, or a duration's end) as a date serial, and
          // `period_start` a duration's first day, so facts sort, filter and join by date.
          const columns: Column<DisclosureXbrlFact>[] = [
            ...["element_name", "context"].map((k) => plainColumn(k) as Column<DisclosureXbrlFact>),
            { ...plainColumn("period"), value: (f) => periodCells(f.period, ctx).end },
            { ...plainColumn("period_start"), value: (f) => periodCells(f.period, ctx).start },
            { ...plainColumn("value"), value: (f) => factCell(f, ctx.host) },
            plainColumn("unit") as Column<DisclosureXbrlFact>,
          ];
          return table(ctx, columns, rows, mode, title);
        }
        case "available_sections": {
          const rows = (body.available_sections ?? []).map((section_id) => ({ section_id }));
          if (rows.length === 0) throw noResults();
          return table(ctx, [plainColumn("section_id")], rows, mode, title);
        }
      }
    },
    ...answersOf("getDisclosure"),
  },
);

export function document(
  docId: unknown,
  part: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return documentTable(invocation, [docId, part, headers]);
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
function factCell(fact: DisclosureXbrlFact, host: HostCapabilities): Cell {
  const value = fact.value;
  if (typeof value === "string" && ISO_DAY.test(value)) return dateCell(value, host);
  const unit = fact.unit === null ? undefined : XBRL_UNITS[fact.unit.toLowerCase()];
  return unitCell(value, unit, "jpy", host);
}
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An XBRL fact's period (openapi.json DisclosureXbrlFact: string or null) as date cells: an instant
 * "YYYY-MM-DD" is its end and has no start; a duration "YYYY-MM-DD/YYYY-MM-DD" (ISO 8601 interval,
 * as the service sends it) gives both. Any other text stays text in `period`, never a guessed date.
 */
function periodCells(
  period: string | null,
  ctx: Pick<Shaping, "host">,
): { start: Cell; end: Cell } {
  if (period === null || period.trim() === "") return { start: EMPTY, end: EMPTY };
  const text = period.trim();
  if (ISO_DAY.test(text)) return { start: EMPTY, end: dateCell(text, ctx.host) };
  const parts = text.split("/");
  if (parts.length === 2 && parts.every((p) => ISO_DAY.test(p))) {
    const [from, to] = parts as [string, string];
    const start = dateCell(from, ctx.host);
    const end = dateCell(to, ctx.host);
    if (typeof start !== "string" && typeof end !== "string") return { start, end };
  }
  return { start: EMPTY, end: text };
}

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
const xbrlCell = defineCell<XbrlArgs, XbrlQuery, XbrlQuery, ResponseOf<"getDisclosure">, never>({
  parse: parseXbrl,
  // The document is the subject: nothing to look up.
  subjectAtHand: (args) => args.query,
  subject: (_ctx, args) => args.query,
  needs: (_args, query) => [query],
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
  peek: (client, query) => client.peek("getDisclosure", query),
  fetch: (ctx, _args, query) => ctx.client.disclosure(query, ctx.options),
});

export function xbrl(
  docId: unknown,
  element: unknown,
  context: unknown,
  invocation?: InvocationLike,
): Cell | Promise<Cell> {
  return xbrlCell(invocation, docId, element, context);
}

/** SECTION's arguments read. */
interface SectionArgs {
  id: string;
  which: (typeof SECTION_IDS)[number];
}

type SectionQuery = ParamsOf<"getDisclosureSection">;

function sectionQuery({ id, which }: SectionArgs): SectionQuery {
  return internedQuery(`getDisclosureSection|${id}|${which}`, () => ({
    doc_id: id,
    section: which,
  }));
}

/**
 * SECTION: the section as plain text, one paragraph per row, no cell over Excel's 32,767
 * characters. A section the document lacks gives #N/A listing the ones it has (openapi.json
 * getDisclosureSection).
 */
const sectionTable = defineTable<
  SectionArgs,
  string,
  SectionQuery,
  ResponseOf<"getDisclosureSection">
>({
  parse: ([docId, sectionId]) => ({
    id: docIdArg(docId),
    which: requiredChoice(sectionId, "section", SECTION_IDS),
  }),
  subjectAtHand: (args) => args.id,
  subject: (_ctx, args) => args.id,
  needs: (args) => [sectionQuery(args)],
  compute(args, id, answers) {
    const body = answers.read(sectionQuery(args));
    if (body === undefined) return LACKING;
    if (body.section_text === null) {
      const list = body.available_sections.join(", ") || "-";
      throw noData(
        `${id} has no section ${args.which}; available: ${list}`,
        `${id} に ${args.which} はありません。利用可能：${list}`,
      );
    }
    const cells = splitForCells(htmlToText(body.section_text));
    if (cells.length === 0) throw noResults();
    return cells.map((c) => [c]);
  },
  ...answersOf("getDisclosureSection"),
});

export function section(
  docId: unknown,
  sectionId: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return sectionTable(invocation, [docId, sectionId]);
}
