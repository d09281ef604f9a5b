// DOCUMENT and SECTION over GET /disclosures/{doc_id} and its sections (openapi.json
// getDisclosure, getDisclosureSection): a lazy chunk (fn-document); XBRL is functions/xbrl.ts.

import type { DisclosureDocumentSection, DisclosureXbrlFact } from "../src/contract";
import type { ParamsOf, ResponseOf } from "../src/client";
import { SECTION_IDS } from "../src/contract/disclosure-sections";
import {
  docIdArg,
  headersArg,
  optionalChoice,
  requiredChoice,
  type HeaderMode,
} from "../src/excel/args";
import { jstIsoDate } from "../src/excel/dates";
import type { Column } from "../src/excel/shape";
import { htmlToText, splitForCells, truncateForCell } from "../src/excel/text";
import { dateCell, EMPTY, type Cell } from "../src/excel/values";
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
import { LACKING } from "./cells/define-cell";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import { answersOf } from "./cells/answers";
import { documentQuery, factCell, ISO_DAY, PARTS, type DocumentQuery, type Part } from "./xbrl";

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
    needs: {
      // The document is the subject: nothing to look up.
      subjectAtHand: (args) => args.id,
      subject: (_ctx, args) => args.id,
      first: (args, id) => [documentQuery(id, args.which)],
      ...answersOf("getDisclosure"),
    },
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
  },
);

export function document(
  docId: unknown,
  part: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): TableResult {
  return documentTable(invocation, [docId, part, headers]);
}

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
  needs: {
    subjectAtHand: (args) => args.id,
    subject: (_ctx, args) => args.id,
    first: (args) => [sectionQuery(args)],
    ...answersOf("getDisclosureSection"),
  },
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
});

export function section(
  docId: unknown,
  sectionId: unknown,
  invocation?: InvocationLike,
): TableResult {
  return sectionTable(invocation, [docId, sectionId]);
}
