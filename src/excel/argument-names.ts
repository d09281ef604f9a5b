// The Japanese name of each function argument, for messages: the names Excel shows in its
// Japanese formula help (scripts/functions-ja-table.json "$parameterNames", held equal by
// test/excel/argument-names.test.ts), so a message names the argument the way the user reads it.

const JA: Readonly<Record<string, string>> = {
  company: "会社",
  items: "項目",
  item: "項目",
  period: "期間",
  years: "年数",
  as_of: "基準日",
  unit: "単位",
  layout: "配置",
  headers: "見出し",
  order: "並び順",
  fiscal_period: "決算期",
  quarter: "四半期",
  fields: "項目",
  field: "項目",
  from: "開始日",
  to: "終了日",
  date: "日付",
  metric: "指標",
  limit: "件数",
  filters: "条件",
  sort_by: "並べ替え項目",
  sort_order: "並べ替え順",
  sector: "セクター",
  industry: "業種",
  name: "名称",
  dataset: "データセット",
  q: "検索語",
  market: "市場",
  fiscal_year: "決算年",
  from_fiscal_year: "開始決算年",
  to_fiscal_year: "終了決算年",
  document_type: "書類種別",
  doc_id: "書類ID",
  part: "部分",
  element: "要素",
  context: "コンテキスト",
  section: "セクション",
  person_id: "人物ID",
  exchange: "取引所",
  table: "表",
};

/**
 * An argument's name as the Japanese formula help shows it; a name it does not list as it is.
 * @example argumentNameJa("item") // "項目"
 */
export function argumentNameJa(argument: string): string {
  return Object.prototype.hasOwnProperty.call(JA, argument) ? (JA[argument] as string) : argument;
}

/**
 * Every argument name with its Japanese name.
 * @internal Tests hold it equal to functions-ja-table.json.
 */
export const ARGUMENT_NAMES_JA = JA;
