// TSE 17 sectors and TSE 33 industries: the official Japanese names the API filters by, with English labels.

export interface Named {
  ja: string;
  en: string;
}

/** TOPIX-17 sectors (openapi.json getScreening `sector`), in TSE code order. */
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

/** A TSE 33 industry with the TOPIX-17 sector it belongs to. */
export interface Industry extends Named {
  sector: string;
}

/**
 * TSE 33 industries (openapi.json getScreening / listSecurities `industry`), in TSE code order,
 * with their sector.
 */
export const TSE33_INDUSTRIES: readonly Industry[] = [
  { ja: "水産・農林業", en: "Fishery, agriculture & forestry", sector: "食品" },
  { ja: "鉱業", en: "Mining", sector: "エネルギー資源" },
  { ja: "建設業", en: "Construction", sector: "建設・資材" },
  { ja: "食料品", en: "Foods", sector: "食品" },
  { ja: "繊維製品", en: "Textiles & apparels", sector: "素材・化学" },
  { ja: "パルプ・紙", en: "Pulp & paper", sector: "素材・化学" },
  { ja: "化学", en: "Chemicals", sector: "素材・化学" },
  { ja: "医薬品", en: "Pharmaceutical", sector: "医薬品" },
  { ja: "石油・石炭製品", en: "Oil & coal products", sector: "エネルギー資源" },
  { ja: "ゴム製品", en: "Rubber products", sector: "自動車・輸送機" },
  { ja: "ガラス・土石製品", en: "Glass & ceramics products", sector: "建設・資材" },
  { ja: "鉄鋼", en: "Iron & steel", sector: "鉄鋼・非鉄" },
  { ja: "非鉄金属", en: "Nonferrous metals", sector: "鉄鋼・非鉄" },
  { ja: "金属製品", en: "Metal products", sector: "建設・資材" },
  { ja: "機械", en: "Machinery", sector: "機械" },
  { ja: "電気機器", en: "Electric appliances", sector: "電機・精密" },
  { ja: "輸送用機器", en: "Transportation equipment", sector: "自動車・輸送機" },
  { ja: "精密機器", en: "Precision instruments", sector: "電機・精密" },
  { ja: "その他製品", en: "Other products", sector: "情報通信・サービスその他" },
  { ja: "電気・ガス業", en: "Electric power & gas", sector: "電力・ガス" },
  { ja: "陸運業", en: "Land transportation", sector: "運輸・物流" },
  { ja: "海運業", en: "Marine transportation", sector: "運輸・物流" },
  { ja: "空運業", en: "Air transportation", sector: "運輸・物流" },
  { ja: "倉庫・運輸関連業", en: "Warehousing & harbor transportation", sector: "運輸・物流" },
  { ja: "情報・通信業", en: "Information & communication", sector: "情報通信・サービスその他" },
  { ja: "卸売業", en: "Wholesale trade", sector: "商社・卸売" },
  { ja: "小売業", en: "Retail trade", sector: "小売" },
  { ja: "銀行業", en: "Banks", sector: "銀行" },
  { ja: "証券、商品先物取引業", en: "Securities & commodity futures", sector: "金融（除く銀行）" },
  { ja: "保険業", en: "Insurance", sector: "金融（除く銀行）" },
  { ja: "その他金融業", en: "Other financing business", sector: "金融（除く銀行）" },
  { ja: "不動産業", en: "Real estate", sector: "不動産" },
  { ja: "サービス業", en: "Services", sector: "情報通信・サービスその他" },
];

/** Matching key: NFKC folds full-width/half-width forms (（）vs (), ・ variants) and spaces go. */
function foldName(name: string): string {
  return name.normalize("NFKC").replace(/\s+/g, "");
}

/**
 * Splits a comma list of sector or industry names and maps each to its official spelling.
 * Returns the canonical names and the ones that match nothing (openapi.json getScreening: the
 * filter takes official TSE names; an unknown one can only fail or match nothing, so the client
 * refuses it unsent).
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
  for (const part of list.split(/[,，]/)) {
    // 、 separates names too, but one official name contains it (証券、商品先物取引業): a piece
    // joined with the next one is tried first, so that name is never split in two.
    const pieces = part.split("、").map((p) => p.trim());
    for (let i = 0; i < pieces.length; i++) {
      const item = pieces[i] as string;
      const joined =
        i + 1 < pieces.length ? byFolded.get(foldName(`${item}、${pieces[i + 1]}`)) : undefined;
      if (joined !== undefined) {
        out.push(joined);
        i += 1;
        continue;
      }
      if (item === "") continue;
      const official = byFolded.get(foldName(item));
      if (official === undefined) unknown.push(item);
      else out.push(official);
    }
  }
  return { names: out, unknown };
}
