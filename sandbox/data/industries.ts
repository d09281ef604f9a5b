// TSE 33 industry names (official Japanese) and the TSE 17 sector each belongs to.

/** TSE 33 industry -> TSE 17 sector. */
export const TSE33_TO_TSE17: Readonly<Record<string, string>> = {
  "水産・農林業": "食品",
  食料品: "食品",
  鉱業: "エネルギー資源",
  "石油・石炭製品": "エネルギー資源",
  建設業: "建設・資材",
  "ガラス・土石製品": "建設・資材",
  金属製品: "建設・資材",
  繊維製品: "素材・化学",
  "パルプ・紙": "素材・化学",
  化学: "素材・化学",
  医薬品: "医薬品",
  ゴム製品: "自動車・輸送機",
  輸送用機器: "自動車・輸送機",
  鉄鋼: "鉄鋼・非鉄",
  非鉄金属: "鉄鋼・非鉄",
  機械: "機械",
  電気機器: "電機・精密",
  精密機器: "電機・精密",
  その他製品: "情報通信・サービスその他",
  "情報・通信業": "情報通信・サービスその他",
  サービス業: "情報通信・サービスその他",
  "電気・ガス業": "電力・ガス",
  陸運業: "運輸・物流",
  海運業: "運輸・物流",
  空運業: "運輸・物流",
  "倉庫・運輸関連業": "運輸・物流",
  卸売業: "商社・卸売",
  小売業: "小売",
  銀行業: "銀行",
  "証券、商品先物取引業": "金融（除く銀行）",
  保険業: "金融（除く銀行）",
  その他金融業: "金融（除く銀行）",
  不動産業: "不動産",
};

export const TSE33_INDUSTRIES: readonly string[] = Object.keys(TSE33_TO_TSE17);

export const TSE17_SECTORS: readonly string[] = [...new Set(Object.values(TSE33_TO_TSE17))];
