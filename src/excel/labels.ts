// Japanese header labels: the contract's field dictionary for numbers, a table for text columns.

import { FIELD_DICTIONARY, type Dataset, type FieldInfo } from "../contract";
import { isPercentage } from "./percent-scale";
import { ownValue } from "./own-key";

/**
 * Labels of non-numeric columns the functions and task pane imports show (openapi.json schema field
 * names).
 */
const TEXT_LABELS: Readonly<Record<string, string>> = {
  item: "項目",
  security_code: "証券コード",
  edinet_code: "EDINETコード",
  code: "証券コード",
  name: "名称",
  name_ja: "名称",
  address_ja: "所在地",
  market: "市場区分",
  industry: "業種",
  industry_name: "業種",
  sector: "セクター",
  listed_security_codes: "上場証券コード",
  fiscal_year: "決算期",
  quarter: "四半期",
  accounting_standard: "会計基準",
  is_consolidated: "連結",
  date: "日付",
  rank: "順位",
  close_price: "終値",
  change_percent: "騰落率（%）",
  volume: "出来高",
  segment_name: "セグメント名",
  revenue_basis: "売上高の根拠",
  operating_income_basis: "営業利益の根拠",
  change_type: "増減区分",
  source_refs: "出典書類",
  segments: "競合セグメント",
  competition_reason: "競合理由",
  doc_id: "書類ID",
  source: "情報源",
  document_type: "書類種別",
  title: "表題",
  filing_date: "提出日",
  disclosed_at: "開示日時",
  available_for_redistribution_at: "再配布可能日時",
  source_url: "公開ページ",
  pdf_url: "PDF",
  section_id: "セクションID",
  section_title_raw: "セクション名",
  text: "本文",
  element_name: "要素名",
  context: "コンテキスト",
  period: "期間",
  value: "値",
  unit: "単位",
  person_id: "人物ID",
  birth_date: "生年月日",
  role: "役職",
  position: "地位",
  latest_role: "最新の役職",
  latest_position: "最新の地位",
  security_name: "銘柄名",
  company_name: "会社名",
  is_outside: "社外",
  is_current: "現任",
  is_next_term_nominee: "次期候補",
  first_valid_from: "初回就任日",
  last_valid_to: "退任日",
  tenure_years: "在任年数",
  fiscal_period_end: "決算期末",
  total_comp: "報酬総額",
  fixed_comp: "固定報酬",
  performance_comp: "業績連動報酬",
  stock_comp: "株式報酬",
  report_date: "申込日",
  exchange_code: "取引所",
  key: "キー",
  label: "名称",
  type: "種類",
  note: "注記",
  metric: "指標",
  source_label: "出典",
  license_note: "利用条件",
  processed_by: "加工者",
  remaining: "残りリクエスト数",
  per_5y_avg: "PER 5年平均",
  per_source: "PERの基準",
  capital_relationship: "資本関係",
  parent_companies: "親会社等",
  scope_exceptions: "連結範囲の例外",
  period_start: "期間開始日",
};

/**
 * API field names that differ between endpoints for one concept -> the one column name every
 * function shows (`security_code` everywhere, never `code` in one table). The API's own
 * names stay accepted wherever a name is typed (field-names.ts).
 */
const COLUMN_NAMES: Readonly<Record<string, string>> = {
  code: "security_code", // GET /securities
  industry_name: "industry", // GET /rankings
  close_price: "close", // GET /rankings, weekly margin (PRICES' `close`)
  company_name: "security_name", // compensation history (PERSON, APPOINTMENTS' `security_name`)
};

/** The column name functions show for an API field (`code` -> `security_code`). */
export function columnName(apiKey: string): string {
  return ownValue(COLUMN_NAMES, apiKey) ?? apiKey;
}

/** Words of the title row (headers mode 2) in Japanese: dataset, period type, part of a document. */
const TITLE_WORDS: Readonly<Record<string, string>> = {
  financials: "財務諸表",
  annual: "通期",
  quarterly: "四半期",
  quarter: "四半期",
  semiannual: "半期",
  valuations: "バリュエーション",
  prices: "株価",
  segments: "セグメント",
  dividends: "配当",
  disclosures: "開示一覧",
  document: "書類",
  meta: "概要",
  sections: "本文",
  xbrl: "XBRL",
  available_sections: "セクション一覧",
  margin: "信用残",
  jsf: "日証金",
  days: "日次",
  reverse: "逆日歩",
  other_exchange_reverse: "他市場の逆日歩",
  officers: "役員",
  person: "人物",
  appointments: "役職歴",
  compensation: "役員報酬",
  peers: "競合",
  securities: "銘柄一覧",
  screening: "スクリーニング",
  "screening fields": "スクリーニング指標",
  fields: "項目一覧",
  rankings: "ランキング",
  applied: "分割調整済",
  undeterminable: "分割調整不能",
  "not-applicable": "分割調整なし",
};

/**
 * A title row caption in the header language: "financials annual (百万円)" -> "財務諸表 通期（百万円）".
 * Words the table does not know (codes, names, "52w") stay as they are.
 */
export function titleCaption(caption: string, language: "keys" | "ja"): string {
  if (language !== "ja") return caption;
  const whole = ownValue(TITLE_WORDS, caption);
  if (whole !== undefined) return whole;
  return caption
    .split(" ")
    .map((w) => ownValue(TITLE_WORDS, w) ?? w)
    .join(" ")
    .replace(/ \(([^()]*)\)$/, "（$1）"); // a trailing "(百万円)" in Japanese brackets
}

/** The field dictionary entry of `key` in `dataset`, if it has one. */
export function fieldInfo(dataset: Dataset, key: string): FieldInfo | undefined {
  return FIELD_DICTIONARY[dataset].find((f) => f.key === key);
}

/** Japanese label of a column: the dictionary's (when `dataset` has the key), else the table's. */
export function labelJa(key: string, dataset?: Dataset): string | undefined {
  return (
    (dataset !== undefined ? fieldInfo(dataset, key)?.label : undefined) ??
    ownValue(TEXT_LABELS, key)
  );
}

/** Unit id of a key in a dataset (`jpy`, `jpy_per_share`, …), undefined for text columns. */
export function unitOf(dataset: Dataset, key: string): string | undefined {
  return fieldInfo(dataset, key)?.unit;
}

/** A label that already says it is in percent: `騰落率（%）`. */
const PERCENT_NOTE = /[（(][%％][)）]$/;

/**
 * The Japanese header of a numeric column of contract unit `unit`: a percentage says so
 * (`配当性向（%）`), since its cells hold fractions shown as % (percent-scale.ts), whichever scale
 * the API used. Other labels are returned as they are.
 *
 * @example unitLabel("ROE（自己資本利益率）", "percent") // "ROE（自己資本利益率）（%）"
 */
export function unitLabel(
  label: string | undefined,
  unit: string | null | undefined,
): string | undefined {
  if (label === undefined || !isPercentage(unit) || PERCENT_NOTE.test(label)) return label;
  return `${label}（%）`;
}

/** A typed name without the `（%）` a percentage's header carries (unitLabel), for look-ups. */
export function withoutPercentNote(text: string): string {
  return text.trim().replace(PERCENT_NOTE, "");
}
