// The filing's XBRL fact for a traced figure: read from the document's answer when it is held
// (the XBRL and DOCUMENT functions' own query, functions/xbrl.ts documentQuery), else named as the
// one request that would read it, which the view sends only on the analyst's click.

import type { ResponseOf } from "../../src/client";
import { documentQuery } from "../../functions/xbrl";
import type { TraceDeps } from "./trace-parts";
import type { CellTrace, FilingRef, XbrlFactRef } from "./trace-model";

/** The document query whose answer holds a filing's XBRL facts (shared with XBRL cells). */
export function xbrlQuery(docId: string): { doc_id: string; include: string } {
  return documentQuery(docId, "xbrl");
}

/**
 * The filings to read a fact from, best first: a correction (訂正, latest first: openapi.json
 * getFinancials values are the latest corrected ones), then the statutory report, then the 決算短信.
 */
function candidates(filings: readonly FilingRef[]): FilingRef[] {
  const rank = (f: FilingRef) => (f.correction ? 0 : f.kind === "tanshin" ? 2 : 1);
  return [...filings]
    .filter((f) => f.kind !== "other")
    .sort((a, b) => rank(a) - rank(b) || b.date.localeCompare(a.date));
}

/**
 * The filings a source names: a period's results filings, or a row's own source documents
 * (openapi.json DividendRecord source_refs) as listed, else by id: an EDINET document is a
 * statutory report, a TDnet one a 決算短信 for the order of `candidates`.
 */
function filingsOf(source: CellTrace["source"]): FilingRef[] {
  if (source?.kind === "filings") return source.filings;
  if (source?.kind !== "refs") return [];
  return source.refs.map(
    (r): FilingRef =>
      r.filing ?? {
        doc_id: r.doc_id,
        source: r.source === "tdnet" ? "tdnet" : "edinet",
        title: r.doc_id,
        date: "",
        kind: r.source === "tdnet" ? "tanshin" : "yuho",
        correction: false,
      },
  );
}

/**
 * Facts of the period's own contexts whose value is the figure: openapi.json names no XBRL
 * element for an item (FinancialsPeriod has none), so the match is by value, leaving out the
 * prior year's contexts (Prior1YearDuration…) a filing repeats for comparison.
 */
function factsFor(body: ResponseOf<"getDisclosure">, value: number): XbrlFactRef[] {
  return (body.xbrl_facts ?? [])
    .filter((f) => typeof f.value === "number" && f.value === value)
    .filter((f) => !/^prior/i.test(f.context ?? ""))
    .map((f) => ({
      element_name: f.element_name,
      context: f.context,
      value: f.value,
      unit: f.unit,
    }));
}

/**
 * The trace with its XBRL fact: the first candidate filing whose held answer has a fact equal to
 * the figure, else the first held one (saying none equals it), else the first candidate as a
 * request to offer. Unchanged when the figure is not a number or no filing was matched.
 * @example withXbrlFact(trace, deps).xbrl?.state // "askable"
 */
export function withXbrlFact(trace: CellTrace, deps: TraceDeps): CellTrace {
  const value = trace.apiValue;
  const filings = filingsOf(trace.source);
  if (typeof value !== "number" || filings.length === 0) return trace;
  const list = candidates(filings);
  let firstHeld: CellTrace["xbrl"];
  for (const f of list) {
    const body = deps.client.peek("getDisclosure", xbrlQuery(f.doc_id)) as
      ResponseOf<"getDisclosure"> | undefined;
    if (body === undefined) continue;
    const facts = factsFor(body, value);
    const held = { state: "held" as const, doc_id: f.doc_id, title: f.title, facts };
    if (facts.length > 0) return { ...trace, xbrl: held };
    firstHeld ??= held;
  }
  if (firstHeld !== undefined) return { ...trace, xbrl: firstHeld };
  const first = list[0];
  return first === undefined
    ? trace
    : { ...trace, xbrl: { state: "askable", doc_id: first.doc_id, title: first.title } };
}
