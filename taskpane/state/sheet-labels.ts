// The words written on the company and comps sheets, in Japanese and English: row and column labels,
// units and notes (workbook content, not pane messages; no API key ever appears on a sheet).

import type { Lang } from "../i18n/language";

export interface Bilingual {
  ja: string;
  en: string;
}

const L = (ja: string, en: string): Bilingual => ({ ja, en });

/** Sheet words by id. */
const SHEET_WORDS = {
  companyTitle: L("企業シート", "Company sheet"),
  code: L("証券コード", "Security code"),
  name: L("会社名", "Company"),
  close: L("株価（直近終値）", "Share price (latest close)"),
  closeDate: L("株価基準日", "Price date"),
  refreshed: L("シート更新日時", "Sheet refreshed"),
  unitNote: L(
    "金額は百万円表示（セルの値は円）。1株当たりの値は株式分割調整後（現在の株数基準、円）。",
    "Amounts shown in JPY millions (cells hold yen). Per-share values are split-adjusted (current share basis, JPY).",
  ),
  summary: L("業績推移（通期）", "Annual results"),
  item: L("項目", "Item"),
  unit: L("単位", "Unit"),
  notApplicableNote: L(
    "—：その期の会計基準にない項目（経常利益などは日本基準のみ。IFRS・米国基準の期は「—」）。",
    "—: the item does not exist under that year's accounting standard (ordinary income etc. are J-GAAP only; IFRS and US GAAP years show —).",
  ),
  derivedNote: L(
    "営業利益率・純利益率・前年比・配当性向・ネットキャッシュはこのシートの数式で計算しています（セルを選ぶと式が見えます）。",
    "Margins, growth, payout and net cash are Excel formulas over the rows above (select a cell to see how).",
  ),
  valuation: L("バリュエーション推移（期末）", "Valuation history (fiscal year end)"),
  fiscalYear: L("決算期", "Fiscal year"),
  chartData: L(
    "株価チャート用データ（分割調整後終値、直近1年）",
    "Chart data (split-adjusted close, past year)",
  ),
  chartTitle: L("株価（分割調整後終値、直近1年）", "Share price (split-adjusted close, past year)"),
  chartDataOf: L(" の株価（チャート用、直近1年）", ": share price for the chart (past year)"),
  ltmHeader: L("LTM", "LTM"),
  standardRow: L("会計基準", "Accounting standard"),
  // As an imported table's 連結 column (src/excel/labels.ts is_consolidated): TRUE or FALSE.
  consolidatedRow: L("連結", "Consolidated"),
  factsNote: L(
    "会計基準・連結（TRUE：連結、FALSE：単体）は作成時（{code}）の開示によるものです。B2 を別の企業にすると空欄になります（シートを作り直すと表示）。",
    "Accounting standard and consolidation (TRUE: consolidated, FALSE: parent only) are as disclosed at the build ({code}); with another company in B2 they are blank until the sheet is built again.",
  ),
  roeNote: L(
    "ROE は開示値。開示のない期はデータ提供元の計算値を使い、「ROE の出所」行に「計算値」と表示します。",
    "ROE is the reported figure; where none is reported the data source's computed ROE is used, and the ROE basis row says computed.",
  ),
  ltmNote: L(
    "LTM：直近4四半期の合計（フロー項目）、直近の期末残高（ストック項目）。比率・従業員数・前年比と、四半期の開示から12か月分を求められない項目は空欄。",
    "LTM: the last four quarters summed (flows) or the latest balance (stocks); ratios, head count, growth and items whose quarters do not give twelve months are left blank.",
  ),
  halfNote: L(
    "最新の半期（右端の列）：上期、または通期 − 上期の下期。フロー項目は6か月分、ストック項目は半期末の残高。比率・従業員数・前年比は空欄。",
    "Latest half (right-most column): H1, or H2 = full year − H1. Flows for the six months, stocks at the half's end; ratios, head count and growth are left blank.",
  ),
  headMarketCap: L("時価総額（現在、百万円）", "Market cap (current, JPY millions)"),
  headPer: L("PER（現在株価）", "PER (current price)"),
  headPbr: L("PBR（現在株価）", "PBR (current price)"),
  headYield: L("配当利回り（現在株価）", "Dividend yield (current price)"),
  headNote: L(
    "現在株価（B4）÷ 直近通期のEPS・BPS（分割調整後）、配当利回り = 直近通期のDPS ÷ 現在株価、時価総額 = 現在株価 × 期末時価総額 ÷ 期末株価（分割調整後）。NM：利益・純資産がゼロ以下。",
    "Latest close (B4) ÷ latest full-year EPS / BPS (split-adjusted); yield = latest DPS ÷ close; market cap = close × year-end market cap ÷ year-end split-adjusted price. NM: earnings or book zero or negative.",
  ),
  chartSeries: L("終値（分割調整後）", "Close (split-adjusted)"),
  date: L("日付", "Date"),
  // comps
  compsTitle: L("同業比較", "Peer comparison"),
  compsSubject: L("対象企業", "Subject company"),
  compsNote: L(
    "A列のコードを書き換える・空き行にコードを入れると、その行の数値が計算されます。会社名・業種は作成時の値です。",
    "Type a code in column A (or overwrite one) and that row's figures calculate. Names and industries are as of the build.",
  ),
  compsPriceNote: L(
    "現在株価ベースの倍率 = 直近終値 ÷ 各行の決算期のEPS・BPS（分割調整後）、配当利回り = DPS ÷ 直近終値。時価総額（現在）= 直近終値 × 期末時価総額 ÷ 期末株価（分割調整後）。EV = 時価総額（現在）＋ 有利子負債 － 現金及び現金同等物（決算期末）、EV/EBITDA = EV ÷ その期のEBITDA。期末ベースは各行の決算期の値。",
    "Current multiples = latest close ÷ the row's fiscal-year EPS / BPS (split-adjusted); yield = DPS ÷ latest close. Market cap (current) = latest close × year-end market cap ÷ year-end split-adjusted price. EV = current market cap + interest-bearing debt − cash and equivalents (year end); EV/EBITDA = EV ÷ that year's EBITDA. Year-end figures are of each row's fiscal year.",
  ),
  compsNmNote: L(
    "NM：意味のない倍率（分母の利益・純資産・EBITDAがゼロ以下、または値がない）。同業中央値・平均・社数は対象企業を除く同業の行から、NMと空欄を除いて計算します。",
    "NM: not meaningful (earnings, book value or EBITDA zero or negative, or no value). Peer median, mean and count cover the peers' rows (the subject excluded), NM and blanks left out.",
  ),
  industry: L("業種", "Industry"),
  // Earlier builds' summary labels: a rebuild still finds where the rows end on such a sheet.
  median: L("中央値", "Median"),
  mean: L("平均", "Mean"),
  peerMedian: L("同業中央値（対象除く）", "Peer median (excl. subject)"),
  peerMean: L("同業平均（対象除く）", "Peer mean (excl. subject)"),
  peerCount: L("集計社数（対象除く）", "Peers counted (excl. subject)"),
  relationSubsidiary: L("対象企業の子会社", "Subsidiary of the subject"),
  relationRelated: L("対象企業の関係会社", "Affiliate of the subject"),
  relationParent: L("対象企業の親会社・大株主", "Holds the subject (parent or major holder)"),
  relationSharedParent: L("対象企業と親会社が同じ", "Same parent as the subject"),
  // sources at the foot of both sheets (attribution, a condition of use)
  sources: L("出典", "Sources"),
  sourcePeers: L("同業企業", "Peers"),
  sourceFinancials: L("財務", "Financials"),
  sourceValuations: L("バリュエーション", "Valuations"),
  sourcePrices: L("株価", "Prices"),
  sourceCompany: L("企業情報", "Company"),
} as const satisfies Record<string, Bilingual>;

export type SheetWord = keyof typeof SHEET_WORDS;

/** A sheet word in a language, `{name}` placeholders filled. */
export function sheetWord(id: SheetWord, lang: Lang, vars: Record<string, string> = {}): string {
  return SHEET_WORDS[id][lang].replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
}

/** Unit words shown beside a row or in a header. */
export const UNIT_WORDS = {
  million_jpy: L("百万円", "JPY millions"),
  hundred_million_jpy: L("億円", "JPY 100 millions"),
  yen: L("円", "JPY"),
  percent: L("%", "%"),
  times: L("倍", "x"),
  people: L("人", "people"),
} as const satisfies Record<string, Bilingual>;

export type UnitWord = keyof typeof UNIT_WORDS;
