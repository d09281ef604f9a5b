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
    "Amounts shown in JPY mn (cells hold yen). Per-share values are split-adjusted (current share basis, JPY).",
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
  chartTitle: L(
    "{code} 株価（分割調整後終値、直近1年）",
    "{code} share price (split-adjusted close, past year)",
  ),
  chartSeries: L("終値（分割調整後）", "Close (split-adjusted)"),
  date: L("日付", "Date"),
  // comps
  compsTitle: L("同業比較", "Comparable companies"),
  compsSubject: L("対象企業", "Subject company"),
  compsNote: L(
    "A列のコードを書き換える・空き行にコードを入れると、その行の数値が計算されます。会社名・業種は作成時の値です。",
    "Type a code in column A (or overwrite one) and that row's figures calculate. Names and industries are as of the build.",
  ),
  compsPriceNote: L(
    "現在株価ベースの倍率 = 直近終値 ÷ 直近通期のEPS・BPS（分割調整後）、配当利回り = 直近通期のDPS ÷ 直近終値。期末ベースは各行の決算期の値。",
    "Current multiples = latest close ÷ latest full-year EPS / BPS (split-adjusted); yield = latest DPS ÷ latest close. Year-end figures are of each row's fiscal year.",
  ),
  industry: L("業種", "Industry"),
  median: L("中央値", "Median"),
  mean: L("平均", "Mean"),
} as const satisfies Record<string, Bilingual>;

export type SheetWord = keyof typeof SHEET_WORDS;

/** A sheet word in a language, `{name}` placeholders filled. */
export function sheetWord(id: SheetWord, lang: Lang, vars: Record<string, string> = {}): string {
  return SHEET_WORDS[id][lang].replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
}

/** Unit words shown beside a row or in a header. */
export const UNIT_WORDS = {
  million_jpy: L("百万円", "JPY mn"),
  hundred_million_jpy: L("億円", "JPY 100mn"),
  yen: L("円", "JPY"),
  percent: L("%", "%"),
  times: L("倍", "x"),
  people: L("人", "people"),
} as const satisfies Record<string, Bilingual>;

export type UnitWord = keyof typeof UNIT_WORDS;
