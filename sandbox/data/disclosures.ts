// Disclosure documents (openapi.json disclosure schemas): list items, meta, sections and XBRL facts
// for every planned document.
import type { components } from "../../src/contract/generated/api-types";
import { addDays, monthEnd, addMonths } from "./calendar";
import type { CompanyFinancials } from "./financials";
import {
  pdfUrl,
  sourceUrl,
  TDNET_ARCHIVE_FROM,
  type DisclosurePlan,
  type DocPlan,
} from "./disclosure-plan";
import { annualReportSections, interimReportSections, timelySections } from "./disclosure-text";
import type { DisclosureRecord } from "./model";

type S = components["schemas"];
type FinancialsPeriod = S["FinancialsPeriod"];
type Fact = S["DisclosureXbrlFact"];

/** The company whose latest annual report carries the >40,000-character section. */
const LONG_SECTION_CODE = "7203";

function addHours(iso: string, hours: number): string {
  return new Date(Date.parse(iso) + hours * 3_600_000).toISOString().replace(".000Z", "Z");
}

function fullYearRow(fin: CompanyFinancials, label: string): FinancialsPeriod | null {
  return (
    fin.quarterly.find((r) => r.fiscal_year === label && r.quarter === "full_year") ??
    fin.semiannual.find((r) => r.fiscal_year === label && r.quarter === "full_year") ??
    fin.annual.find((r) => r.fiscal_year === label) ??
    null
  );
}

function xbrlFacts(
  plan: DocPlan,
  row: FinancialsPeriod | null,
  prev: FinancialsPeriod | null,
): Fact[] {
  const p = plan.period;
  const spec = plan.spec;
  const facts: Fact[] = [
    { element_name: "jpdei_cor:SecurityCodeDEI", context: "FilingDateInstant", period: plan.filingDate, value: `${spec.code}0`, unit: null },
    { element_name: "jpdei_cor:EDINETCodeDEI", context: "FilingDateInstant", period: plan.filingDate, value: spec.edinet, unit: null },
    { element_name: "jpcrp_cor:CompanyNameCoverPage", context: "FilingDateInstant", period: plan.filingDate, value: spec.name.replace("（サンプル）", "株式会社（サンプル）"), unit: null },
  ]; // prettier-ignore
  if (!p || !row) return facts;
  const std = row.accounting_standard;
  facts.push({
    element_name: "jpdei_cor:AccountingStandardsDEI",
    context: "FilingDateInstant",
    period: plan.filingDate,
    value: std === "J-GAAP" ? "Japan GAAP" : std === "IFRS" ? "IFRS" : "US GAAP",
    unit: null,
  });
  facts.push({
    element_name: "jpdei_cor:CurrentFiscalYearEndDateDEI",
    context: "FilingDateInstant",
    period: plan.filingDate,
    value: p.end,
    unit: null,
  });
  const [sy, sm] = addMonths(p.year, p.month, -3 * p.quarterCount);
  const start = addDays(monthEnd(sy, sm), 1);
  const duration = `${start}/${p.end}`;
  const [py, pm] = addMonths(p.year, p.month, -12);
  const prevEnd = monthEnd(py, pm);
  const prevDuration = `${addDays(monthEnd(...addMonths(py, pm, -12)), 1)}/${prevEnd}`;
  const suffix = std === "IFRS" ? "IFRS" : std === "US-GAAP" ? "USGAAP" : "";
  const salesEl =
    std === "IFRS" ? "RevenueIFRS" : std === "US-GAAP" ? "RevenuesUSGAAP" : "NetSales";
  const money = (name: string, context: string, period: string, v: number | null): void => {
    if (v !== null)
      facts.push({
        element_name: `jpcrp_cor:${name}SummaryOfBusinessResults`,
        context,
        period,
        value: v,
        unit: "JPY",
      });
  };
  money(salesEl, "CurrentYearDuration", duration, row.sales);
  money(salesEl, "Prior1YearDuration", prevDuration, prev?.sales ?? null);
  if (std === "J-GAAP")
    money("OrdinaryIncomeLoss", "CurrentYearDuration", duration, row.ordinary_income);
  money(
    `ProfitLossAttributableToOwnersOfParent${suffix}`,
    "CurrentYearDuration",
    duration,
    row.net_income,
  );
  money(
    `ProfitLossAttributableToOwnersOfParent${suffix}`,
    "Prior1YearDuration",
    prevDuration,
    prev?.net_income ?? null,
  );
  money(`TotalAssets${suffix}`, "CurrentYearInstant", p.end, row.total_assets);
  money(
    std === "J-GAAP" ? "NetAssets" : `EquityAttributableToOwnersOfParent${suffix}`,
    "CurrentYearInstant",
    p.end,
    std === "J-GAAP" ? row.net_assets : row.owners_equity,
  );
  money(
    `CashFlowsFromUsedInOperatingActivities${suffix}`,
    "CurrentYearDuration",
    duration,
    row.operating_cf,
  );
  if (row.eps !== null)
    facts.push({
      element_name: `jpcrp_cor:BasicEarningsLossPerShare${suffix}SummaryOfBusinessResults`,
      context: "CurrentYearDuration",
      period: duration,
      value: row.eps,
      unit: "JPYPerShares",
    });
  if (row.dps !== null)
    facts.push({
      element_name: "jpcrp_cor:DividendPaidPerShareSummaryOfBusinessResults",
      context: "CurrentYearDuration_NonConsolidatedMember",
      period: duration,
      value: row.dps,
      unit: "JPYPerShares",
    });
  if (row.equity_ratio !== null)
    facts.push({
      element_name: `jpcrp_cor:EquityToAssetRatio${suffix}SummaryOfBusinessResults`,
      context: "CurrentYearInstant",
      period: p.end,
      value: row.equity_ratio,
      unit: "pure",
    });
  if (row.number_of_employees !== null)
    facts.push({
      element_name: "jpcrp_cor:NumberOfEmployees",
      context: "CurrentYearInstant",
      period: p.end,
      value: row.number_of_employees,
      unit: "pure",
    });
  if (row.shares_outstanding !== null)
    facts.push({
      element_name: "jpcrp_cor:TotalNumberOfIssuedSharesSummaryOfBusinessResults",
      context: "CurrentYearInstant_NonConsolidatedMember",
      period: p.end,
      value: row.shares_outstanding,
      unit: "shares",
    });
  facts.push({
    element_name: "jpcrp_cor:DescriptionOfBusinessTextBlock",
    context: "FilingDateInstant",
    period: plan.filingDate,
    value: `当社グループは${spec.industry}の事業を営んでおります。（サンプル）`,
    unit: null,
  });
  return facts;
}

function timelyFacts(plan: DocPlan, row: FinancialsPeriod | null): Fact[] {
  if (!row || !plan.period) return [];
  const ctx =
    plan.kind === "tanshin"
      ? "CurrentYearDuration_ConsolidatedMember_ResultMember"
      : "CurrentAccumulatedQ" +
        String(plan.quarter ?? 1) +
        "Duration_ConsolidatedMember_ResultMember";
  const period = plan.period.end;
  const out: Fact[] = [];
  if (row.sales !== null)
    out.push({
      element_name: "tse-ed-t:NetSales",
      context: ctx,
      period,
      value: row.sales,
      unit: "JPY",
    });
  if (row.operating_profit !== null)
    out.push({
      element_name: "tse-ed-t:OperatingIncome",
      context: ctx,
      period,
      value: row.operating_profit,
      unit: "JPY",
    });
  if (row.net_income !== null)
    out.push({
      element_name: "tse-ed-t:ProfitAttributableToOwnersOfParent",
      context: ctx,
      period,
      value: row.net_income,
      unit: "JPY",
    });
  out.push({
    element_name: "tse-ed-t:SecuritiesCode",
    context: "FilingDateInstant",
    period: plan.filingDate,
    value: plan.spec.code,
    unit: null,
  });
  return out;
}

/** Sum of the first `q` single-quarter rows of a fiscal year (cumulative figures of a quarter report). */
function cumulativeRow(fin: CompanyFinancials, label: string, q: number): FinancialsPeriod | null {
  const rows = fin.quarterly
    .filter((r) => r.fiscal_year === label && r.quarter !== "full_year")
    .slice(0, q);
  const first = rows[0];
  if (!first) return null;
  const out = { ...first };
  for (const key of [
    "sales",
    "operating_profit",
    "net_income",
    "total_assets",
    "operating_cf",
  ] as const) {
    const vals = rows.map((r) => r[key]);
    out[key] = vals.every((v) => v !== null)
      ? vals.reduce<number>((a, v) => a + (v ?? 0), 0)
      : null;
  }
  return out;
}

export function buildDisclosures(
  plan: DisclosurePlan,
  fins: Map<string, CompanyFinancials>,
): DisclosureRecord[] {
  const out: DisclosureRecord[] = [];
  const latestYuho = new Map<string, string>();
  for (const d of plan.docs) if (d.kind === "yuho") latestYuho.set(d.spec.code, d.docId);
  for (const d of plan.docs) {
    if (d.source === "tdnet" && d.filingDate < TDNET_ARCHIVE_FROM) continue;
    const fin = fins.get(d.spec.code);
    if (!fin) continue;
    const label = d.period?.label ?? null;
    const isYear = d.kind === "yuho" || d.kind === "tanshin" || d.kind === "rinji";
    const row =
      label === null
        ? null
        : isYear
          ? fullYearRow(fin, label)
          : cumulativeRow(fin, label, d.quarter ?? 1);
    const prevLabel = d.period
      ? `${d.period.year - 1}/${String(d.period.month).padStart(2, "0")}`
      : null;
    const prevRow =
      prevLabel === null
        ? null
        : isYear
          ? fullYearRow(fin, prevLabel)
          : cumulativeRow(fin, prevLabel, d.quarter ?? 1);
    const ctx = {
      plan: d,
      row,
      prevRow,
      long: d.spec.code === LONG_SECTION_CODE && latestYuho.get(d.spec.code) === d.docId,
    };
    const sections =
      d.kind === "yuho"
        ? annualReportSections(ctx)
        : d.kind === "q-report" || d.kind === "h-report"
          ? interimReportSections(ctx)
          : d.kind === "rinji"
            ? [
                {
                  section_id: "body",
                  section_title_raw: "臨時報告書",
                  html_or_text:
                    "<p>1【提出理由】2026年6月開催の当社定時株主総会において決議事項が決議されましたので、金融商品取引法第24条の5第4項並びに企業内容等の開示に関する内閣府令第19条第2項第9号の2の規定に基づき提出するものであります。</p><p>※本書はサンプルデータです。</p>",
                },
              ]
            : timelySections(ctx);
    const facts =
      d.kind === "yuho"
        ? xbrlFacts(d, row, prevRow)
        : d.source === "tdnet"
          ? timelyFacts(d, row)
          : xbrlFacts(d, null, null);
    const item: S["SecurityDisclosure"] = {
      doc_id: d.docId,
      source: d.source,
      document_type: d.documentType,
      title: d.title,
      filing_date: d.filingDate,
      disclosed_at: d.disclosedAt,
      source_url: sourceUrl(d),
      pdf_url: pdfUrl(d),
    };
    out.push({
      item,
      security_code: d.spec.code,
      edinet_code: d.spec.edinet,
      meta: {
        doc_id: d.docId,
        source: d.source,
        filing_date: d.filingDate,
        disclosed_at: d.disclosedAt,
        // openapi.json DisclosureDocumentMeta: timely system = disclosure + 24 hours; statutory
        // system = disclosure time.
        available_for_redistribution_at:
          d.source === "tdnet" ? addHours(d.disclosedAt, 24) : d.disclosedAt,
        edinet_code: d.spec.edinet,
        title: d.title,
        document_type: d.documentType,
        source_url: item.source_url,
        pdf_url: item.pdf_url,
      },
      sections,
      xbrl_facts: facts,
    });
  }
  // Newest disclosure time first; ties by doc_id descending for a stable order.
  return out.sort((a, b) =>
    a.meta.disclosed_at === b.meta.disclosed_at
      ? a.item.doc_id < b.item.doc_id
        ? 1
        : -1
      : a.meta.disclosed_at < b.meta.disclosed_at
        ? 1
        : -1,
  );
}
