// The preview page's own words, in Japanese and English (cell messages come from the functions).

export type PreviewLang = "ja" | "en";

const EN = {
  title: "Kaisha for Excel — function preview",
  workbookLink: "Try the task pane with a workbook",
  sampleBadge: "Sandbox: fictional sample data",
  liveBadge: "Live API",
  language: "Language",
  baseUrl: "API base URL",
  mode: "Connection",
  modeDirect: "Direct",
  modeRelay: "Relay (via this host)",
  apiKey: "API key",
  apply: "Apply",
  applied: "Connection settings applied.",
  badUrl:
    "Not applied: the base URL must start with https:// (plain http:// only to this computer, e.g. http://127.0.0.1:8787/v1), with no user name, query or #.",
  demoKeyInUse: "Using the sandbox demo key.",
  noKey: "No API key: functions will answer #N/A until you enter one.",
  examples: "Examples",
  enter: "Enter",
  recalc: "Recalculate",
  clear: "Clear sheet",
  formulaPlaceholder: 'Type a formula, e.g. =KAISHA.FINANCIALS(7203,"sales,net_income")',
  selectCell: "Select a cell, type a formula in the bar above and press Enter.",
  cell: "Cell",
  formula: "Formula",
  value: "Value",
  spilledFrom: "Spilled from",
  busy: "Calculating…",
  syntaxError: "There is a problem with this formula",
  spillBlocked: "The spill range is not blank",
  functions: "KAISHA functions",
  loading: "Loading the functions…",
  loadFailed: "The functions bundle did not load: build the add-in (npm start or npm run build).",
  stats: (requests: number, hits: number, coalesced: number) =>
    `Requests sent: ${requests} · cache hits: ${hits} · coalesced: ${coalesced}`,
  attribution:
    "Showing this data to others? Show its source label with it (KAISHA.ATTRIBUTION(), or headers mode 2).",
  gridTruncated: (rows: number) => `Showing the first ${rows} rows of the grid.`,
  entityCard: "Card",
};

export type Strings = typeof EN;

const JA: Strings = {
  title: "Kaisha for Excel — 関数プレビュー",
  workbookLink: "作業ウィンドウをブックと一緒に試す",
  sampleBadge: "サンドボックス：架空のサンプルデータ",
  liveBadge: "本番 API",
  language: "言語",
  baseUrl: "API ベース URL",
  mode: "接続方式",
  modeDirect: "直接",
  modeRelay: "中継（このホスト経由）",
  apiKey: "API キー",
  apply: "適用",
  applied: "接続設定を適用しました。",
  badUrl:
    "適用していません：ベース URL は https:// で始めてください（http:// はこのコンピューター内のみ。例 http://127.0.0.1:8787/v1）。ユーザー名・クエリ・# は付けられません。",
  demoKeyInUse: "サンドボックスのデモキーを使用中です。",
  noKey: "API キーがありません。入力するまで関数は #N/A を返します。",
  examples: "例",
  enter: "確定",
  recalc: "再計算",
  clear: "シートをクリア",
  formulaPlaceholder: '数式を入力（例：=KAISHA.FINANCIALS(7203,"sales,net_income")）',
  selectCell: "セルを選び、上のバーに数式を入力して Enter を押してください。",
  cell: "セル",
  formula: "数式",
  value: "値",
  spilledFrom: "スピル元",
  busy: "計算中…",
  syntaxError: "この数式には問題があります",
  spillBlocked: "スピル範囲が空ではありません",
  functions: "KAISHA 関数一覧",
  loading: "関数を読み込んでいます…",
  loadFailed:
    "関数バンドルを読み込めませんでした。アドインをビルドしてください（npm start または npm run build）。",
  stats: (requests: number, hits: number, coalesced: number) =>
    `送信リクエスト：${requests}・キャッシュ利用：${hits}・まとめた呼び出し：${coalesced}`,
  attribution:
    "このデータを第三者に示すときは出典（KAISHA.ATTRIBUTION() または headers=2 の見出し行）を併記してください。",
  gridTruncated: (rows: number) => `グリッドは先頭 ${rows} 行まで表示しています。`,
  entityCard: "カード",
};

export function stringsFor(lang: PreviewLang): Strings {
  return lang === "ja" ? JA : EN;
}

/** `?lang=ja|en` wins, then the browser's language. */
export function pickLang(search: string, navigatorLanguage: string | undefined): PreviewLang {
  const fromQuery = new URLSearchParams(search).get("lang");
  if (fromQuery === "ja" || fromQuery === "en") return fromQuery;
  return (navigatorLanguage ?? "").toLowerCase().startsWith("ja") ? "ja" : "en";
}

/** Formulas that work against the sandbox's sample companies. */
export const EXAMPLES: readonly string[] = [
  '=KAISHA.FINANCIALS(7203,"sales,operating_profit,net_income",,5)',
  '=KAISHA.FINANCIAL(7203,"sales",0)',
  '=KAISHA.PRICES(7203,,,"close,volume")',
  "=KAISHA.VALUATION(7203)",
  "=KAISHA.COMPANY(7203)",
  '=KAISHA.FIELDS("financials")',
  "=KAISHA.USAGE()",
];
