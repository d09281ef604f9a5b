// The disclosure schedule of the sample companies: which documents exist, their ids, titles and times
// (statutory system `edinet`, timely system `tdnet`), shared by disclosures, dividends and segments.
import { addDays, addMonths, isTradingDay, monthEnd, nextTradingDay, pad2 } from "./calendar";
import type { CompanySpec, Standard } from "./companies";
import type { CompanyFinancials } from "./financials";
import type { PeriodDef } from "./fiscal-periods";
import { CORRECTIONS } from "./corrections";
import { SANDBOX_DEFAULT_NOW } from "./model";
import { Prng } from "./prng";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

export type DocKind =
  | "yuho" // 有価証券報告書
  | "q-report" // 四半期報告書
  | "h-report" // 半期報告書
  | "rinji" // 臨時報告書
  | "tanshin" // 決算短信 (annual)
  | "q-tanshin" // 四半期決算短信
  | "notice"; // other timely disclosure

export interface DocPlan {
  docId: string;
  source: "edinet" | "tdnet";
  kind: DocKind;
  spec: CompanySpec;
  period: PeriodDef | null;
  /** 1..4 for quarter documents. */
  quarter: number | null;
  /** ISO 8601 UTC. */
  disclosedAt: string;
  /** YYYY-MM-DD (JST). */
  filingDate: string;
  title: string;
  documentType: string | null;
  /** Notice text kind for `notice` documents. */
  noticeTopic?: string;
}

/**
 * Where stored originals would be served; the sandbox does not host PDFs (openapi.json
 * SecurityDisclosure pdf_url).
 */
const SANDBOX_PDF_BASE = "http://127.0.0.1:8787/pdf";
const EDINET_PAGE_BASE = "https://disclosure2.edinet-fsa.go.jp/WZEK0040.aspx";
/**
 * openapi.json DividendSourceRef: timely-system documents are retrievable only from September 2013
 * onward.
 */
export const TDNET_ARCHIVE_FROM = "2013-09-01";
/** Quarterly reports (四半期報告書) were replaced by half-year reports (半期報告書) from fiscal 2024. */
const QUARTERLY_REPORT_UNTIL = "2024-03-31";
const QUARTERLY_REPORT_FROM = "2015-01-01";

/**
 * Fixed timely disclosures near the data clock: some under 24 hours old (openapi.json
 * info.description).
 */
const RECENT_OVERRIDES: Record<string, string> = {
  // company code -> disclosed_at of its newest results tanshin
  "3697": "2026-11-20T06:00:00Z", // 3 hours before the data clock: hidden
  "4592": "2026-11-19T10:00:00Z", // 23 hours: hidden
  "4385": "2026-11-19T09:30:00Z", // 23.5 hours: hidden
  "130A": "2026-11-19T06:30:00Z", // 26.5 hours: available
};

function standardLabel(std: Standard): string {
  return std === "J-GAAP" ? "日本基準" : std === "IFRS" ? "IFRS" : "米国基準";
}

function jpDate(date: string): string {
  return date.replaceAll("-", "/");
}

function jstToUtc(date: string, hh: number, mm: number): string {
  // JST = UTC+9; hh is a JST hour (>= 9 keeps the same calendar date in UTC).
  return `${date}T${pad2(hh - 9)}:${pad2(mm)}:00Z`;
}

function tradingOnOrAfter(date: string): string {
  return isTradingDay(date) ? date : nextTradingDay(date);
}

class DocIdRegistry {
  private readonly used = new Set<string>();
  private readonly rng = new Prng("doc-ids");
  private tdnetSeq = new Map<string, number>();

  edinet(): string {
    for (;;) {
      const id = `S1${this.rng.alnum(6)}`;
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }

  /** 14 digits: the JST date and a per-day sequence. */
  tdnet(date: string): string {
    const ymd = date.replaceAll("-", "");
    const seq = (this.tdnetSeq.get(ymd) ?? 500000 + (Number(ymd) % 7919)) + 1;
    this.tdnetSeq.set(ymd, seq);
    return `${ymd}${String(seq).padStart(6, "0")}`;
  }
}

function ki(spec: CompanySpec, year: number): number {
  return 40 + (spec.code.charCodeAt(0) % 9) * 9 + (year - 2005);
}

export interface DisclosurePlan {
  docs: DocPlan[];
  /** `${code}|${label}|${kind}|${quarter ?? ""}` -> plan. */
  byKey: Map<string, DocPlan>;
}

export function planKey(
  code: string,
  label: string,
  kind: DocKind,
  quarter: number | null,
): string {
  return `${code}|${label}|${kind}|${quarter ?? ""}`;
}

/** Plan every document of every company, in a deterministic order. */
export function planDisclosures(companies: readonly CompanyFinancials[]): DisclosurePlan {
  const ids = new DocIdRegistry();
  const docs: DocPlan[] = [];
  const byKey = new Map<string, DocPlan>();
  const nowIso = SANDBOX_DEFAULT_NOW;
  const add = (plan: Omit<DocPlan, "docId">, key: string): void => {
    if (plan.disclosedAt > nowIso) return;
    const docId = plan.source === "edinet" ? ids.edinet() : ids.tdnet(plan.filingDate);
    const full: DocPlan = { ...plan, docId };
    docs.push(full);
    byKey.set(key, full);
  };
  for (const fin of companies) {
    const spec = fin.spec;
    const rng = new Prng(`plan:${spec.code}`);
    const scope = spec.consolidated ? "連結" : "非連結";
    const latestPeriod = fin.periods[fin.periods.length - 1];
    for (const p of fin.periods) {
      const std =
        spec.previousStandard && spec.switchYear !== undefined && p.year < spec.switchYear
          ? spec.previousStandard
          : spec.standard;
      const [sy, sm] = addMonths(p.year, p.month, -3 * p.quarterCount);
      const start = addDays(monthEnd(sy, sm), 1);
      // Quarter results (timely) and quarterly / half-year reports (statutory).
      for (let q = 1; q <= math.min(p.publishedQuarters, p.quarterCount - 1); q += 1) {
        const qEndIdx = p.firstQuarter + q - 1;
        const qEnd = fin.quarters[qEndIdx]?.end;
        if (!qEnd) continue;
        const tDate = tradingOnOrAfter(addDays(qEnd, 38 + rng.int(0, 6)));
        const isLatestQuarter = p === latestPeriod && q === p.publishedQuarters;
        const override = isLatestQuarter ? RECENT_OVERRIDES[spec.code] : undefined;
        const midTerm = q === 2 && qEnd >= "2024-06-30";
        add(
          {
            source: "tdnet", kind: "q-tanshin", spec, period: p, quarter: q,
            disclosedAt: override ?? jstToUtc(tDate, 15, rng.int(0, 5) * 5),
            filingDate: override ? override.slice(0, 10) : tDate,
            title: midTerm
              ? `${p.year}年${p.month}月期 中間期決算短信〔${standardLabel(std)}〕（${scope}）`
              : `${p.year}年${p.month}月期 第${q}四半期決算短信〔${standardLabel(std)}〕（${scope}）`,
            documentType: null,
          },
          planKey(spec.code, p.label, "q-tanshin", q),
        ); // prettier-ignore
        const eDate = tradingOnOrAfter(addDays(qEnd, 43 + rng.int(0, 2)));
        if (qEnd >= QUARTERLY_REPORT_FROM && qEnd <= QUARTERLY_REPORT_UNTIL) {
          add(
            {
              source: "edinet", kind: "q-report", spec, period: p, quarter: q,
              disclosedAt: jstToUtc(eDate, 13 + rng.int(0, 3), rng.int(0, 59)), filingDate: eDate,
              title: `四半期報告書－第${ki(spec, p.year)}期第${q}四半期(${jpDate(addDays(monthEnd(...addMonths(Number(qEnd.slice(0, 4)), Number(qEnd.slice(5, 7)), -3)), 1))}－${jpDate(qEnd)})`,
              documentType: "四半期報告書",
            },
            planKey(spec.code, p.label, "q-report", q),
          ); // prettier-ignore
        } else if (q === 2 && qEnd > QUARTERLY_REPORT_UNTIL) {
          add(
            {
              source: "edinet", kind: "h-report", spec, period: p, quarter: 2,
              disclosedAt: jstToUtc(eDate, 13 + rng.int(0, 3), rng.int(0, 59)), filingDate: eDate,
              title: `半期報告書－第${ki(spec, p.year)}期(${jpDate(start)}－${jpDate(qEnd)})`,
              documentType: "半期報告書",
            },
            planKey(spec.code, p.label, "h-report", 2),
          ); // prettier-ignore
        }
      }
      if (!p.complete) continue;
      const tDate = tradingOnOrAfter(addDays(p.end, 40 + rng.int(0, 5)));
      const override = p === latestPeriod ? RECENT_OVERRIDES[spec.code] : undefined;
      add(
        {
          source: "tdnet", kind: "tanshin", spec, period: p, quarter: p.quarterCount,
          disclosedAt: override ?? jstToUtc(tDate, 15, rng.int(0, 5) * 5),
          filingDate: override ? override.slice(0, 10) : tDate,
          title: `${p.year}年${p.month}月期 決算短信〔${standardLabel(std)}〕（${scope}）`,
          documentType: null,
        },
        planKey(spec.code, p.label, "tanshin", null),
      ); // prettier-ignore
      const yDate = tradingOnOrAfter(addDays(p.end, 86 + rng.int(0, 4)));
      add(
        {
          source: "edinet", kind: "yuho", spec, period: p, quarter: null,
          disclosedAt: jstToUtc(yDate, 10 + rng.int(0, 6), rng.int(0, 59)), filingDate: yDate,
          title: `有価証券報告書－第${ki(spec, p.year)}期(${jpDate(start)}－${jpDate(p.end)})`,
          documentType: "有価証券報告書",
        },
        planKey(spec.code, p.label, "yuho", null),
      ); // prettier-ignore
      if (p.year >= 2019) {
        const rDate = nextTradingDay(yDate);
        add(
          {
            source: "edinet", kind: "rinji", spec, period: p, quarter: null,
            disclosedAt: jstToUtc(rDate, 14, rng.int(0, 59)), filingDate: rDate,
            title: "臨時報告書", documentType: "臨時報告書",
          },
          planKey(spec.code, p.label, "rinji", null),
        ); // prettier-ignore
      }
    }
    // Split announcements (about six weeks before the rights date), timely system.
    for (const e of [...spec.events]) {
      const d = tradingOnOrAfter(addDays(e.rightsLastDate, -45));
      add(
        {
          source: "tdnet", kind: "notice", spec, period: null, quarter: null,
          disclosedAt: jstToUtc(d, 15, 30), filingDate: d,
          title: e.ratio > 1 ? "株式分割及び株式分割に伴う定款の一部変更に関するお知らせ" : "株式併合、単元株式数の変更及び定款の一部変更に関するお知らせ",
          documentType: null, noticeTopic: e.ratio > 1 ? "split" : "consolidation",
        },
        planKey(spec.code, e.rightsLastDate, "notice", null),
      ); // prettier-ignore
    }
  }
  // Fresh notices near the data clock: one under 24 hours, one just over.
  const extra: [string, string, string, string][] = [
    ["7203", "2026-11-20T06:30:00Z", "自己株式の取得状況に関するお知らせ", "buyback"],
    ["6098", "2026-11-20T07:00:00Z", "業績予想の修正に関するお知らせ", "forecast"],
    ["8306", "2026-11-19T07:00:00Z", "剰余金の配当（中間配当）に関するお知らせ", "dividend"],
    // The 訂正 of a published results figure (data/corrections.ts, openapi.json getFinancials).
    ...CORRECTIONS.map((c): [string, string, string, string] => [
      c.code,
      c.disclosedAt,
      c.title,
      "correction",
    ]),
  ];
  for (const [code, at, title, topic] of extra) {
    const fin = companies.find((c) => c.spec.code === code);
    if (!fin) continue;
    add(
      {
        source: "tdnet", kind: "notice", spec: fin.spec, period: null, quarter: null,
        disclosedAt: at, filingDate: at.slice(0, 10), title, documentType: null, noticeTopic: topic,
      },
      planKey(code, at, "notice", null),
    ); // prettier-ignore
  }
  return { docs, byKey };
}

export function pdfUrl(plan: DocPlan): string | null {
  // Old statutory filings were not stored as PDF here: no URL can be formed (openapi.json
  // SecurityDisclosure pdf_url).
  if (plan.source === "edinet" && plan.filingDate < "2009-01-01") return null;
  return `${SANDBOX_PDF_BASE}/${plan.docId}.pdf`;
}

export function sourceUrl(plan: DocPlan): string | null {
  return plan.source === "edinet" ? `${EDINET_PAGE_BASE}?${plan.docId},,` : null;
}
