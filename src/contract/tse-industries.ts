// TSE 17 sectors and TSE 33 industries: the official Japanese names the API filters by, with English labels.

export interface Named {
  ja: string;
  en: string;
}

/** TOPIX-17 sectors (spec 4.1 `sector`), in TSE code order. */
export const TSE17_SECTORS: readonly Named[] = [
  { ja: "食品", en: "Foods" },
  { ja: "エネルギー資源", en: "Energy resources" },
  { ja: "建設・資材", en: "Construction & materials" },
  { ja: "素材・化学", en: "Raw materials & chemicals" },
  { ja: "医薬品", en: "Pharmaceutical" },
  { ja: "自動車・輸送機", en: "Automobiles & transportation equipment" },
  { ja: "鉄鋼・非鉄", en: "Steel & nonferrous metals" },
  { ja: "機械", en: "Machinery" },
  { ja: "電機・精密", en: "Electric appliances & precision instruments" },
  { ja: "情報通信・サービスその他", en: "IT & services, others" },
  { ja: "電力・ガス", en: "Electric power & gas" },
  { ja: "運輸・物流", en: "Transportation & logistics" },
  { ja: "商社・卸売", en: "Commercial & wholesale trade" },
  { ja: "小売", en: "Retail trade" },
  { ja: "銀行", en: "Banks" },
  { ja: "金融（除く銀行）", en: "Financials (ex banks)" },
  { ja: "不動産", en: "Real estate" },
];

/** TSE 33 industries (spec 4.1 `industry`, 4.4 `industry`), in TSE code order. */
export const TSE33_INDUSTRIES: readonly Named[] = [
  { ja: "水産・農林業", en: "Fishery, agriculture & forestry" },
  { ja: "鉱業", en: "Mining" },
  { ja: "建設業", en: "Construction" },
  { ja: "食料品", en: "Foods" },
  { ja: "繊維製品", en: "Textiles & apparels" },
  { ja: "パルプ・紙", en: "Pulp & paper" },
  { ja: "化学", en: "Chemicals" },
  { ja: "医薬品", en: "Pharmaceutical" },
  { ja: "石油・石炭製品", en: "Oil & coal products" },
  { ja: "ゴム製品", en: "Rubber products" },
  { ja: "ガラス・土石製品", en: "Glass & ceramics products" },
  { ja: "鉄鋼", en: "Iron & steel" },
  { ja: "非鉄金属", en: "Nonferrous metals" },
  { ja: "金属製品", en: "Metal products" },
  { ja: "機械", en: "Machinery" },
  { ja: "電気機器", en: "Electric appliances" },
  { ja: "輸送用機器", en: "Transportation equipment" },
  { ja: "精密機器", en: "Precision instruments" },
  { ja: "その他製品", en: "Other products" },
  { ja: "電気・ガス業", en: "Electric power & gas" },
  { ja: "陸運業", en: "Land transportation" },
  { ja: "海運業", en: "Marine transportation" },
  { ja: "空運業", en: "Air transportation" },
  { ja: "倉庫・運輸関連業", en: "Warehousing & harbor transportation" },
  { ja: "情報・通信業", en: "Information & communication" },
  { ja: "卸売業", en: "Wholesale trade" },
  { ja: "小売業", en: "Retail trade" },
  { ja: "銀行業", en: "Banks" },
  { ja: "証券、商品先物取引業", en: "Securities & commodity futures" },
  { ja: "保険業", en: "Insurance" },
  { ja: "その他金融業", en: "Other financing business" },
  { ja: "不動産業", en: "Real estate" },
  { ja: "サービス業", en: "Services" },
];

/** Matching key: NFKC folds full-width/half-width forms (（）vs (), ・ variants) and spaces go. */
function foldName(name: string): string {
  return name.normalize("NFKC").replace(/\s+/g, "");
}

/**
 * Splits a comma list of sector or industry names and maps each to its official spelling.
 * Returns the canonical names and the ones that match nothing (spec 4.1: the filter takes official
 * TSE names; an unknown one can only fail or match nothing, so the client refuses it unsent).
 *
 * @example canonicalNames("電気機器, 輸送用機器", TSE33_INDUSTRIES) // {names: [...], unknown: []}
 */
export function canonicalNames(
  list: string,
  names: readonly Named[],
): { names: string[]; unknown: string[] } {
  const byFolded = new Map(names.map((n) => [foldName(n.ja), n.ja]));
  const out: string[] = [];
  const unknown: string[] = [];
  for (const part of list.split(/[,、，]/)) {
    const item = part.trim();
    if (item === "") continue;
    const official = byFolded.get(foldName(item));
    if (official === undefined) unknown.push(item);
    else out.push(official);
  }
  return { names: out, unknown };
}
