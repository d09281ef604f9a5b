// The KAISHA function catalogue (issue 4) for the formula builder: arguments, hints and examples in ja/en.

import { kaishaFormula, numericOrText, type FormulaArg } from "./formula-text";

export interface ArgSpec {
  name: string;
  optional: boolean;
  /** keeps numbers as numbers (years, limit...) instead of text. */
  numeric?: boolean;
  hint: { ja: string; en: string };
  example: string;
}

export interface FunctionSpec {
  name: string;
  description: { ja: string; en: string };
  args: ArgSpec[];
}

const a = (
  name: string,
  optional: boolean,
  ja: string,
  en: string,
  example: string,
  numeric = false,
): ArgSpec => ({ name, optional, numeric, hint: { ja, en }, example });

const COMPANY = a(
  "company",
  false,
  "証券コードまたはEDINETコード",
  "Security code or EDINET code",
  "7203",
);
const CODE = a(
  "security_code",
  false,
  "証券コード（4〜5桁）",
  "Security code (4-5 characters)",
  "7203",
);
const HEADERS = a(
  "headers",
  true,
  "0: なし、1: 見出し行（既定）、2: タイトル行＋見出し行",
  "0 none, 1 header row (default), 2 title row + header row",
  "1",
  true,
);
const UNIT = a(
  "unit",
  true,
  "金額の単位: jpy / thousand_jpy / million_jpy / hundred_million_jpy",
  "Money unit: jpy / thousand_jpy / million_jpy / hundred_million_jpy",
  "million_jpy",
);
const PERSON = a("person_id", false, "人物ID（数字）", "Person id (digits)", "100001");
const DOC = a(
  "doc_id",
  false,
  "書類ID（S+7桁の英数字、または14桁）",
  "Document id (S + 7 alphanumerics, or 14 digits)",
  "S100ABCD",
);

export const FUNCTION_CATALOGUE: readonly FunctionSpec[] = [
  {
    name: "FINANCIAL",
    description: {
      ja: "財務項目の値を1つ返します（モデル用）。",
      en: "One financial value for a model cell.",
    },
    args: [
      COMPANY,
      a(
        "item",
        false,
        "項目キー（例: sales, net_income）",
        "Item key (e.g. sales, net_income)",
        "sales",
      ),
      a(
        "fiscal_period",
        true,
        "YYYY/MM、年、0=最新、-1=前期…",
        "YYYY/MM, a year, 0 latest, -1 previous…",
        "0",
        true,
      ),
      a(
        "period",
        true,
        "annual / quarterly / semiannual / LTM",
        "annual / quarterly / semiannual / LTM",
        "annual",
      ),
      a("quarter", true, "Q1〜Q4、H1、full_year", "Q1..Q4, H1, full_year", "Q4"),
      UNIT,
    ],
  },
  {
    name: "FINANCIALS",
    description: { ja: "財務データを表で返します。", en: "Financial statements as a table." },
    args: [
      COMPANY,
      a(
        "items",
        true,
        "項目キーのカンマ区切り、* で全項目",
        "Comma list of item keys, * for all",
        "sales,operating_profit,net_income",
      ),
      a(
        "period",
        true,
        "annual / quarterly / semiannual",
        "annual / quarterly / semiannual",
        "annual",
      ),
      a("years", true, "年数（1〜30）", "Years (1-30)", "10", true),
      a("as_of", true, "基準月 YYYY/MM", "Upper bound month YYYY/MM", "2025/03"),
      UNIT,
      a(
        "layout",
        true,
        "items_down（既定）/ periods_down",
        "items_down (default) / periods_down",
        "items_down",
      ),
      HEADERS,
    ],
  },
  {
    name: "VALUATION",
    description: {
      ja: "PER・PBRなどの推移（新しい年度から）。",
      en: "Valuation history (PER, PBR…), newest first.",
    },
    args: [
      CODE,
      a(
        "fields",
        true,
        "項目のカンマ区切り、per_5y_avg で5年平均PER",
        "Comma list of fields; per_5y_avg alone gives the 5-year average PER",
        "fiscal_year,per,pbr_adjusted",
      ),
      a("years", true, "年数（1〜50）", "Years (1-50)", "10", true),
      HEADERS,
    ],
  },
  {
    name: "PRICES",
    description: { ja: "日々の株価を表で返します。", en: "Daily prices as a table." },
    args: [
      CODE,
      a("from", true, "開始日 YYYY-MM-DD", "From date YYYY-MM-DD", "2025-01-01"),
      a("to", true, "終了日 YYYY-MM-DD", "To date YYYY-MM-DD", "2025-12-31"),
      a("fields", true, "列のカンマ区切り", "Comma list of columns", "date,close,adj_close"),
      a(
        "order",
        true,
        "desc（既定）/ asc（グラフ向け）",
        "desc (default) / asc (for charts)",
        "asc",
      ),
      HEADERS,
    ],
  },
  {
    name: "PRICE",
    description: {
      ja: "株価を1つ返します（最新、または指定日以前の直近）。",
      en: "One price: the latest, or the last on or before a date.",
    },
    args: [
      CODE,
      a(
        "field",
        true,
        "close（既定）/ open / high / low / adj_close / volume",
        "close (default) / open / high / low / adj_close / volume",
        "close",
      ),
      a("date", true, "日付 YYYY-MM-DD", "Date YYYY-MM-DD", "2025-03-31"),
    ],
  },
  {
    name: "RANKINGS",
    description: { ja: "値上がり率などのランキング。", en: "Market rankings." },
    args: [
      a(
        "metric",
        false,
        "gainers / losers / volume / stop-high / stop-low",
        "gainers / losers / volume / stop-high / stop-low",
        "gainers",
      ),
      a("limit", true, "件数（1〜200）", "Rows (1-200)", "20", true),
      HEADERS,
    ],
  },
  {
    name: "SCREEN",
    description: { ja: "条件で銘柄を絞り込みます。", en: "Screens securities by conditions." },
    args: [
      a(
        "filters",
        true,
        "field:op:value[:unit] のカンマ区切り",
        "Comma list of field:op:value[:unit]",
        "per:lte:15,roe:gte:10:percent",
      ),
      a("sort_by", true, "並べ替えの指標キー", "Metric key to sort by", "marketCap"),
      a("sort_order", true, "desc（既定）/ asc", "desc (default) / asc", "desc"),
      a("sector", true, "17業種名のカンマ区切り", "Comma list of TSE 17 sectors", "銀行"),
      a(
        "industry",
        true,
        "33業種名のカンマ区切り",
        "Comma list of TSE 33 industries",
        "輸送用機器",
      ),
      a("as_of", true, "基準日 YYYY-MM-DD", "As-of date YYYY-MM-DD", "2025-03-31"),
      a("limit", true, "件数（1〜100）", "Rows (1-100)", "30", true),
      a("name", true, "銘柄名の部分一致", "Name contains", "トヨタ"),
      HEADERS,
    ],
  },
  {
    name: "SCREENFIELDS",
    description: {
      ja: "スクリーニングで使える指標の一覧。",
      en: "The screening metric catalogue.",
    },
    args: [HEADERS],
  },
  {
    name: "FIELDS",
    description: {
      ja: "データセットの項目辞書（キー・日本語名・単位）。通信しません。",
      en: "Field dictionary of a dataset (no request).",
    },
    args: [
      a(
        "dataset",
        false,
        "financials / valuations / prices / segments / dividends / margin / jsf",
        "financials / valuations / prices / segments / dividends / margin / jsf",
        "financials",
      ),
      HEADERS,
    ],
  },
  {
    name: "SECURITIES",
    description: { ja: "上場銘柄の一覧。", en: "Listed securities." },
    args: [
      a("q", true, "銘柄名・コードの部分一致", "Name or code contains", "自動車"),
      a("market", true, "Prime / Standard / Growth", "Prime / Standard / Growth", "Prime"),
      a("industry", true, "33業種名", "TSE 33 industry", "輸送用機器"),
      a("limit", true, "件数（1〜500）", "Rows (1-500)", "100", true),
      HEADERS,
    ],
  },
  {
    name: "COMPANY",
    description: {
      ja: "企業カード（名称、コード、市場、業種、所在地、主要指標）。",
      en: "Company card: name, codes, market, industry, address, key metrics.",
    },
    args: [COMPANY],
  },
  {
    name: "SEGMENTS",
    description: { ja: "セグメント別の業績。", en: "Segment results." },
    args: [
      COMPANY,
      a("fiscal_year", true, "年度（YYYY）", "Fiscal year (YYYY)", "2024", true),
      a("period", true, "annual / quarter", "annual / quarter", "annual"),
      UNIT,
      HEADERS,
    ],
  },
  {
    name: "DIVIDENDS",
    description: { ja: "年間配当の実績。", en: "Annual dividend records." },
    args: [
      COMPANY,
      a("from_fiscal_year", true, "開始年度", "From fiscal year", "2015", true),
      a("to_fiscal_year", true, "終了年度", "To fiscal year", "2024", true),
      HEADERS,
    ],
  },
  {
    name: "PEERS",
    description: { ja: "競合企業の一覧。", en: "Competitors." },
    args: [CODE, a("limit", true, "件数（1〜20）", "Rows (1-20)", "8", true), HEADERS],
  },
  {
    name: "DISCLOSURES",
    description: { ja: "開示書類の一覧。", en: "Disclosure documents." },
    args: [
      CODE,
      a("from", true, "開始日 YYYY-MM-DD", "From date YYYY-MM-DD", "2025-01-01"),
      a("to", true, "終了日 YYYY-MM-DD", "To date YYYY-MM-DD", "2025-12-31"),
      a("document_type", true, "書類種別（前方一致）", "Document type (prefix)", "有価証券報告書"),
      a("limit", true, "件数", "Rows", "50", true),
      HEADERS,
    ],
  },
  {
    name: "DOCUMENT",
    description: { ja: "開示書類の内容。", en: "A disclosure document." },
    args: [
      DOC,
      a(
        "part",
        true,
        "meta / sections / xbrl / available_sections",
        "meta / sections / xbrl / available_sections",
        "meta",
      ),
      HEADERS,
    ],
  },
  {
    name: "XBRL",
    description: { ja: "XBRLの値を1つ返します。", en: "One XBRL fact." },
    args: [
      DOC,
      a("element", false, "要素名", "Element name", "jppfs_cor:NetSales"),
      a("context", true, "コンテキスト", "Context", "CurrentYearDuration"),
    ],
  },
  {
    name: "SECTION",
    description: { ja: "書類の章をテキストで返します。", en: "A document section as text." },
    args: [
      DOC,
      a(
        "section",
        false,
        "business_overview / risk_factors / mda など",
        "business_overview / risk_factors / mda…",
        "risk_factors",
      ),
    ],
  },
  { name: "OFFICERS", description: { ja: "役員の一覧。", en: "Officers." }, args: [CODE, HEADERS] },
  {
    name: "PERSON",
    description: { ja: "人物のプロフィール。", en: "A person's profile." },
    args: [PERSON, HEADERS],
  },
  {
    name: "APPOINTMENTS",
    description: { ja: "人物の就任履歴。", en: "A person's appointments." },
    args: [PERSON, HEADERS],
  },
  {
    name: "COMPENSATION",
    description: { ja: "人物の報酬履歴。", en: "A person's compensation history." },
    args: [PERSON, HEADERS],
  },
  {
    name: "MARGIN",
    description: { ja: "週次の信用残。", en: "Weekly margin balances." },
    args: [CODE, a("period", true, "26w / 52w", "26w / 52w", "52w"), HEADERS],
  },
  {
    name: "JSFMARGIN",
    description: {
      ja: "日証金の貸借残高と逆日歩。",
      en: "JSF daily lending balances and reverse fees.",
    },
    args: [
      CODE,
      a("period", true, "1m / 3m / 6m / 1y", "1m / 3m / 6m / 1y", "3m"),
      a("to", true, "終了日 YYYY-MM-DD", "End date YYYY-MM-DD", "2025-12-31"),
      a("exchange", true, "XTKS / XNGO / XFKA / XSAP", "XTKS / XNGO / XFKA / XSAP", "XTKS"),
      a(
        "table",
        true,
        "days / reverse / other_exchange_reverse",
        "days / reverse / other_exchange_reverse",
        "days",
      ),
      HEADERS,
    ],
  },
  {
    name: "USAGE",
    description: { ja: "今日の残りリクエスト数。", en: "Remaining requests today." },
    args: [],
  },
  {
    name: "ATTRIBUTION",
    description: { ja: "出典表示とライセンス注記。", en: "Source label and licence note to cite." },
    args: [a("dataset", true, "データセット名", "Dataset", "financials")],
  },
];

export function findFunction(name: string): FunctionSpec | undefined {
  return FUNCTION_CATALOGUE.find((f) => f.name === name);
}

/**
 * The formula for the builder's inputs (numbers where the argument is numeric, text otherwise). An
 * input starting with "=" is a cell reference or expression, written unquoted (`=$B$2` → `$B$2`), so
 * a model's formulas can point at its own cells; bare text such as `Q4` or `E02144` stays text.
 */
export function builderFormula(
  spec: FunctionSpec,
  values: Readonly<Record<string, string>>,
): string {
  const args: FormulaArg[] = spec.args.map((arg) => {
    const raw = (values[arg.name] ?? "").trim();
    if (raw === "") return undefined;
    const ref = raw.startsWith("=") ? raw.slice(1).trim() : "";
    if (ref !== "") return { ref };
    if (arg.numeric) return numericOrText(raw);
    return raw;
  });
  return kaishaFormula(spec.name, args);
}

/** Required arguments still empty. */
export function missingArgs(
  spec: FunctionSpec,
  values: Readonly<Record<string, string>>,
): string[] {
  return spec.args
    .filter((a) => !a.optional && (values[a.name] ?? "").trim() === "")
    .map((a) => a.name);
}
