// The one Japanese (and English) term for each concept the pane, the sheets, the functions and the
// help page name, with the variants that must not appear (test/taskpane/glossary.test.ts reads
// ja.ts, en.ts, the sheets' and tables' label files, scripts/functions-ja-table.json and
// assets/help.html against it).

/** One concept: its term in each language and the spellings that would make it two concepts. */
export interface GlossaryEntry {
  /** The Japanese term (what ja.ts, the Japanese function help and help.html say). */
  ja: string;
  /** Japanese variants that must not appear anywhere in Japanese text. */
  notJa: readonly string[];
  /** The English term. */
  en: string;
  /** English variants that must not appear in English text. */
  notEn: readonly string[];
}

/**
 * Concepts by id. The pane's labels for these concepts are read from here (ja.ts / en.ts), so a
 * term changed here changes everywhere the pane says it; the test keeps every other text in line.
 */
export const GLOSSARY = {
  /** Recalculating every KAISHA cell with fresh answers (the Refresh section's button). */
  refreshAll: {
    ja: "すべて更新",
    notJa: ["一括更新", "全て更新", "全更新", "全部更新"],
    en: "Refresh all",
    notEn: ["Update all", "Refresh everything"],
  },
  /** The one-company sheet the pane builds. */
  companySheet: {
    ja: "企業シート",
    notJa: ["会社シート", "企業分析シート", "銘柄シート"],
    en: "Company sheet",
    notEn: ["Company worksheet"],
  },
  /** The comparison sheet of a company and its peers. */
  compsSheet: {
    ja: "同業比較",
    notJa: ["競合比較", "ピア比較", "類似企業比較"],
    en: "Peer comparison",
    notEn: ["Comps sheet", "Competitor comparison", "Comparable companies"],
  },
  /** The companies the API lists as a company's peers (openapi.json getPeers). */
  peers: {
    ja: "同業他社",
    notJa: ["競合企業", "競合他社", "ピア企業"],
    en: "Peers",
    notEn: ["Competitors"],
  },
  /** The builder of KAISHA formulas. */
  builder: {
    ja: "数式ビルダー",
    notJa: ["関数ビルダー", "数式作成ツール"],
    en: "Formula builder",
    notEn: ["Function builder"],
  },
  /** The list of KAISHA cells showing an error. */
  problems: {
    ja: "エラーの確認",
    notJa: ["エラー一覧", "問題の一覧"],
    en: "Problems",
    notEn: ["Error list"],
  },
  /** Re-asking, after a workbook opens, what may have changed (within a daily budget). */
  backgroundUpdates: {
    ja: "バックグラウンド更新",
    notJa: ["自動更新", "裏更新", "バックグランド"],
    en: "Background updates",
    notEn: ["Auto-refresh", "Auto refresh"],
  },
  /** Replacing formulas with their values. */
  freeze: {
    ja: "値に固定",
    notJa: ["値を固定", "値で固定", "値の固定"],
    en: "Freeze values",
    notEn: ["Paste values"],
  },
  /** The day SCREEN evaluates its conditions on (openapi.json getScreening as_of). */
  asOf: {
    ja: "基準日",
    notJa: ["基準月", "評価日", "評価基準日"],
    en: "as of",
    notEn: [],
  },
  /** The API key the add-in sends. */
  apiKey: {
    ja: "APIキー",
    notJa: ["API キー", "APIの鍵", "アクセスキー"],
    en: "API key",
    notEn: ["API token"],
  },
  /** A listed company's code (openapi.json security_code). */
  securityCode: {
    ja: "証券コード",
    notJa: ["銘柄コード", "株式コード"],
    en: "security code",
    notEn: ["ticker code", "stock code"],
  },
  /** Money shown in millions of yen (a money unit, src/excel/units.ts million_jpy). */
  millionYen: {
    ja: "百万円",
    notJa: ["百万（円）", "単位：百万）"],
    en: "JPY millions",
    notEn: ["JPY mn", "million yen", "JPY million)"],
  },
  /** Money shown in hundreds of millions of yen (hundred_million_jpy). */
  hundredMillionYen: {
    ja: "億円",
    notJa: ["億（円）"],
    en: "JPY 100 millions",
    notEn: ["JPY 100mn", "JPY 100 mn", "100 million yen"],
  },
  /** The percent sign: half width, as Excel's own % format shows it. */
  percentSign: {
    ja: "%",
    notJa: ["％"],
    en: "%",
    notEn: [],
  },
} as const satisfies Record<string, GlossaryEntry>;
