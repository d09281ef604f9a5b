// Finds, among a company's disclosures (openapi.json listSecurityDisclosures), the filings a
// financial period's figures come from: its 決算短信 and its 有価証券報告書 / 四半期報告書 / 半期報告書.

import type { SecurityDisclosure as Disclosure } from "../../src/contract";
import type { FilingRef } from "./trace-model";

/** The period a figure belongs to: its fiscal year's end (YYYY/MM) and, for a part of a year, its quarter. */
export interface FilingPeriod {
  fiscal_year: string;
  /** Q1..Q4, H1 (ends with Q2) or full_year / undefined (the whole year). */
  quarter?: string;
}

/** A title naming a correction: 訂正 (timely system "【訂正】…", statutory "訂正有価証券報告書…"). */
function isCorrection(d: Disclosure): boolean {
  return /訂正/.test(d.title ?? "") || /訂正/.test(d.document_type ?? "");
}

function kindOf(d: Disclosure): FilingRef["kind"] {
  const text = `${d.document_type ?? ""} ${d.title ?? ""}`;
  if (/決算短信/.test(text)) return "tanshin";
  if (/四半期報告書/.test(text)) return "quarterly_report";
  if (/半期報告書/.test(text)) return "half_report";
  if (/有価証券報告書/.test(text)) return "yuho";
  return "other";
}

/** A disclosure as the pane shows and links it (the PDF first, else the system's page). */
function filingRef(d: Disclosure): FilingRef {
  const url = d.pdf_url ?? d.source_url ?? undefined;
  return {
    doc_id: d.doc_id,
    source: d.source,
    title: d.title ?? d.doc_id,
    date: d.filing_date ?? (d.disclosed_at ?? "").slice(0, 10),
    kind: kindOf(d),
    correction: isCorrection(d),
    ...(url ? { url } : {}),
  };
}

/** The quarter number a period's results report covers: 4 for a whole year, 2 for H1. */
function quarterNumber(p: FilingPeriod): number {
  const q = p.quarter;
  if (q === undefined || q === "full_year" || q === "Q4") return 4;
  if (q === "H1") return 2;
  return Number(q.slice(1));
}

/**
 * Whether a statutory title's covered period ends in that month: EDINET writes it
 * "(2024/04/01－2025/03/31)", some filers "(2024年4月1日－2025年3月31日)".
 */
function endsIn(title: string, year: number, month: number): boolean {
  return new RegExp(`－${year}[/年]0?${month}[/月]\\d{1,2}日?\\)`).test(title);
}

/**
 * Whether a disclosure is a results filing of `p`: the 決算短信 titled "2025年3月期 [第N四半期 |
 * 中間期]決算短信" (the sandbox and TDnet name the fiscal year by its end), or the statutory report
 * whose covered period ends with the period (四半期報告書 / 半期報告書 / 有価証券報告書 by their
 * "(start－end)" in the title); a 訂正 of either counts (it restates the same figures).
 */
function belongsTo(d: Disclosure, p: FilingPeriod): boolean {
  const m = /^(\d{4})\/(\d{2})$/.exec(p.fiscal_year);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const q = quarterNumber(p);
  const title = d.title ?? "";
  const kind = kindOf(d);
  if (kind === "tanshin") {
    if (!title.includes(`${year}年${month}月期`)) return false;
    const quarterly = /第(\d)四半期/.exec(title);
    if (quarterly) return Number(quarterly[1]) === q;
    if (/中間期/.test(title)) return q === 2;
    return q === 4;
  }
  // The statutory report's own period: the fiscal year end moved back by the quarters not covered.
  const endIndex = year * 12 + (month - 1) - 3 * (4 - q);
  const endYear = Math.floor(endIndex / 12);
  const endMonth = (endIndex % 12) + 1;
  if (kind === "yuho") return q === 4 && endsIn(title, year, month);
  if (kind === "quarterly_report" || kind === "half_report")
    return q !== 4 && endsIn(title, endYear, endMonth);
  return false;
}

/**
 * The results filings of a period among the company's disclosures, the results report (短信)
 * first, then the statutory report; corrections after the filing they correct. Empty when none
 * matches (the list holds the latest 50 by default: an old period's filings may be beyond it).
 * @example matchFilings(list, { fiscal_year: "2025/03" })[0]?.title // "2025年3月期 決算短信〔IFRS〕（連結）"
 */
export function matchFilings(list: readonly Disclosure[], p: FilingPeriod): FilingRef[] {
  const order: FilingRef["kind"][] = ["tanshin", "yuho", "quarterly_report", "half_report"];
  return list
    .filter((d) => belongsTo(d, p))
    .map(filingRef)
    .sort(
      (a, b) =>
        order.indexOf(a.kind) - order.indexOf(b.kind) ||
        Number(a.correction) - Number(b.correction) ||
        a.date.localeCompare(b.date),
    );
}

/** A dividend / segment row's source documents, with the listed filing where the list has it. */
export function refsWithFilings(
  refs: readonly { doc_id: string; source: string }[],
  list: readonly Disclosure[] | undefined,
): { doc_id: string; source: string; filing?: FilingRef }[] {
  return refs.map((r) => {
    const d = list?.find((x) => x.doc_id === r.doc_id);
    return d ? { ...r, filing: filingRef(d) } : { ...r };
  });
}
