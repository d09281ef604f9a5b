// The fictional sample companies (all names marked （サンプル）): identity, listing and the knobs the generators use.
import { addDays, nextTradingDay } from "./calendar";
import { TSE33_TO_TSE17 } from "./industries";
import type { CorporationRecord, Exchange, SecurityRecord, ShareEvent } from "./model";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

export type Standard = "J-GAAP" | "IFRS" | "US-GAAP";
type Market = "Prime" | "Standard" | "Growth" | null;

/** A change of fiscal year end: the last old-basis year end, then a transitional short period. */
interface FiscalYearChange {
  lastOldYear: number;
  newMonth: number;
  /**
   * true: quarterly actuals cover the gap (TTM fill); false: balance-only fill (openapi.json
   * getFinancials).
   */
  ttmAvailable: boolean;
}

export interface CompanySpec {
  code: string;
  name: string;
  market: Market;
  industry: string;
  edinet: string;
  standard: Standard;
  /** Standard before `switchYear` (fiscal years ending before it). */
  previousStandard?: Standard;
  switchYear?: number;
  fyMonth: number;
  fyChange?: FiscalYearChange;
  exchange: Exchange;
  listedOn: Exchange[];
  /** First trading day of the listing (2005-01-04 for the long-listed). */
  listedFrom: string;
  /** Calendar year of the first fiscal year end in the dataset. */
  firstFiscalYear: number;
  /** First fiscal year (end year) with quarterly actuals. */
  quarterlyFromYear: number;
  /** Annual sales in the first fiscal year, in 100 million yen. */
  salesOku: number;
  /** Trend growth per year. */
  growth: number;
  grossMargin: number;
  sgaRatio: number;
  /** Price-to-book the market tends to give the company. */
  pbr: number;
  /** Adjusted (current basis) share price around 2005, in yen: fixes the share count. */
  price2005: number;
  payout: number;
  /** Daily volatility of the price noise. */
  vol: number;
  events: ShareEvent[];
  consolidated: boolean;
  /**
   * Cash flow disclosed only half-yearly: quarterly operating/investing CF null (openapi.json
   * getFinancials).
   */
  cfSemiannualOnly: boolean;
  address: string;
  /** Special behaviours exercised by tests and docs. */
  traits: ReadonlySet<Trait>;
}

type Trait =
  | "cyclical" // deep losses in downturns
  | "covid-hit" // 2020-2022 losses, dividend cut to zero then resumed
  | "loss-maker" // biotech: losses, no dividend until late
  | "dividend-starter" // first dividend in a recent year ("new")
  | "unverifiable-year" // a year with an unverifiable share basis (ValuationHistoryPoint null rule)
  | "eps-unreported-early" // reported EPS missing before 2010 (per_source computed)
  | "margin-undeterminable" // weekly margin split adjustment undeterminable
  | "illiquid"; // days without trades (null OHLC)

function shareEvent(rightsLastDate: string, ratio: number, ratioText: string): ShareEvent {
  const exDate = nextTradingDay(rightsLastDate);
  // Record date = ex date's next business day; effective the day after the record date.
  const recordDate = nextTradingDay(exDate);
  return { rightsLastDate, exDate, effectiveDate: addDays(recordDate, 1), ratio, ratioText };
}

interface Row {
  code: string;
  name: string;
  market: Market;
  industry: string;
  standard: Standard;
  fyMonth: number;
  salesOku: number;
  price2005: number;
  pbr: number;
  extra?: Partial<Omit<CompanySpec, "traits">> & { traits?: Trait[] };
}

const LONG_LISTED = "2005-01-04";

// prettier-ignore
const ROWS: Row[] = [
  { code: "1332", name: "さくら水産（サンプル）", market: "Prime", industry: "水産・農林業", standard: "J-GAAP", fyMonth: 3, salesOku: 4200, price2005: 420, pbr: 0.9, extra: { listedOn: ["XTKS", "XFKA"] } },
  { code: "1605", name: "北斗資源開発（サンプル）", market: "Prime", industry: "鉱業", standard: "J-GAAP", fyMonth: 12, salesOku: 6500, price2005: 900, pbr: 0.8, extra: { traits: ["cyclical"] } },
  { code: "1801", name: "大地建設（サンプル）", market: "Prime", industry: "建設業", standard: "J-GAAP", fyMonth: 3, salesOku: 14000, price2005: 650, pbr: 1.0 },
  { code: "1925", name: "みどりハウス（サンプル）", market: "Prime", industry: "建設業", standard: "J-GAAP", fyMonth: 3, salesOku: 9000, price2005: 1500, pbr: 1.2 },
  { code: "2002", name: "日の出製粉（サンプル）", market: "Standard", industry: "食料品", standard: "J-GAAP", fyMonth: 12, salesOku: 900, price2005: 700, pbr: 0.8, extra: { fyChange: { lastOldYear: 2014, newMonth: 3, ttmAvailable: true } } },
  { code: "2502", name: "青空ビール（サンプル）", market: "Prime", industry: "食料品", standard: "IFRS", fyMonth: 12, salesOku: 14000, price2005: 1200, pbr: 1.6, extra: { previousStandard: "J-GAAP", switchYear: 2016 } },
  { code: "2593", name: "若葉飲料（サンプル）", market: "Prime", industry: "食料品", standard: "J-GAAP", fyMonth: 4, salesOku: 3200, price2005: 1900, pbr: 2.2 },
  { code: "2975", name: "スター不動産（サンプル）", market: "Standard", industry: "不動産業", standard: "J-GAAP", fyMonth: 11, salesOku: 180, price2005: 600, pbr: 1.1, extra: { growth: 0.12, listedFrom: "2019-03-20", firstFiscalYear: 2014, quarterlyFromYear: 2017 } },
  { code: "3101", name: "東雲紡績（サンプル）", market: "Standard", industry: "繊維製品", standard: "J-GAAP", fyMonth: 9, salesOku: 520, price2005: 300, pbr: 0.5, extra: { fyChange: { lastOldYear: 2013, newMonth: 3, ttmAvailable: false }, quarterlyFromYear: 2015, traits: ["unverifiable-year"] } },
  { code: "3289", name: "東京湾リアルティ（サンプル）", market: "Prime", industry: "不動産業", standard: "J-GAAP", fyMonth: 3, salesOku: 7000, price2005: 1400, pbr: 1.1 },
  { code: "3382", name: "コンビニ本舗（サンプル）", market: "Prime", industry: "小売業", standard: "J-GAAP", fyMonth: 2, salesOku: 50000, price2005: 1500, pbr: 1.5 },
  { code: "3697", name: "データテック（サンプル）", market: "Growth", industry: "情報・通信業", standard: "J-GAAP", fyMonth: 9, salesOku: 35, price2005: 400, pbr: 6.0, extra: { growth: 0.2, listedFrom: "2014-12-16", firstFiscalYear: 2010, quarterlyFromYear: 2014, traits: ["margin-undeterminable"] } },
  { code: "4063", name: "朝日化学工業（サンプル）", market: "Prime", industry: "化学", standard: "J-GAAP", fyMonth: 3, salesOku: 11000, price2005: 2600, pbr: 1.8 },
  { code: "4385", name: "フリマ・テック（サンプル）", market: "Growth", industry: "情報・通信業", standard: "J-GAAP", fyMonth: 6, salesOku: 40, price2005: 1800, pbr: 8.0, extra: { growth: 0.35, listedFrom: "2018-06-19", firstFiscalYear: 2014, quarterlyFromYear: 2017, traits: ["loss-maker"] } },
  { code: "4452", name: "花園化成（サンプル）", market: "Prime", industry: "化学", standard: "IFRS", fyMonth: 12, salesOku: 12000, price2005: 2500, pbr: 2.5, extra: { previousStandard: "J-GAAP", switchYear: 2016 } },
  { code: "4502", name: "大和薬品工業（サンプル）", market: "Prime", industry: "医薬品", standard: "IFRS", fyMonth: 3, salesOku: 11000, price2005: 5000, pbr: 1.9, extra: { previousStandard: "J-GAAP", switchYear: 2014 } },
  { code: "4568", name: "未来創薬（サンプル）", market: "Prime", industry: "医薬品", standard: "IFRS", fyMonth: 3, salesOku: 9000, price2005: 1100, pbr: 2.4, extra: { previousStandard: "J-GAAP", switchYear: 2014 } },
  { code: "4592", name: "ライフバイオ（サンプル）", market: "Growth", industry: "医薬品", standard: "J-GAAP", fyMonth: 12, salesOku: 8, price2005: 700, pbr: 4.0, extra: { growth: 0.18, traits: ["loss-maker"] } },
  { code: "4689", name: "ネットライン（サンプル）", market: "Prime", industry: "情報・通信業", standard: "IFRS", fyMonth: 3, salesOku: 1800, price2005: 450, pbr: 3.0, extra: { previousStandard: "J-GAAP", switchYear: 2020 } },
  { code: "5020", name: "東洋エナジー石油（サンプル）", market: "Prime", industry: "石油・石炭製品", standard: "IFRS", fyMonth: 3, salesOku: 60000, price2005: 600, pbr: 0.6, extra: { previousStandard: "J-GAAP", switchYear: 2018, traits: ["cyclical"] } },
  { code: "5108", name: "日輪ゴム（サンプル）", market: "Prime", industry: "ゴム製品", standard: "IFRS", fyMonth: 12, salesOku: 25000, price2005: 2100, pbr: 1.1, extra: { previousStandard: "J-GAAP", switchYear: 2018 } },
  { code: "5201", name: "光洋硝子（サンプル）", market: "Prime", industry: "ガラス・土石製品", standard: "J-GAAP", fyMonth: 12, salesOku: 12000, price2005: 1300, pbr: 0.8 },
  { code: "5401", name: "富士製鐵（サンプル）", market: "Prime", industry: "鉄鋼", standard: "J-GAAP", fyMonth: 3, salesOku: 40000, price2005: 2500, pbr: 0.7, extra: { traits: ["cyclical"] } },
  { code: "5711", name: "三ツ星金属鉱業（サンプル）", market: "Prime", industry: "非鉄金属", standard: "J-GAAP", fyMonth: 3, salesOku: 9000, price2005: 1200, pbr: 1.0, extra: { traits: ["cyclical"] } },
  { code: "5938", name: "住まいテック（サンプル）", market: "Prime", industry: "金属製品", standard: "IFRS", fyMonth: 3, salesOku: 14000, price2005: 2200, pbr: 0.9, extra: { previousStandard: "J-GAAP", switchYear: 2017 } },
  { code: "5964", name: "東海鋲螺（サンプル）", market: null, industry: "金属製品", standard: "J-GAAP", fyMonth: 3, salesOku: 95, price2005: 550, pbr: 0.4, extra: { exchange: "XNGO", listedOn: ["XNGO"], traits: ["illiquid"] } },
  { code: "6013", name: "北陸機工（サンプル）", market: "Standard", industry: "機械", standard: "J-GAAP", fyMonth: 3, salesOku: 1100, price2005: 800, pbr: 0.7 },
  { code: "6098", name: "ワークリンク（サンプル）", market: "Prime", industry: "サービス業", standard: "IFRS", fyMonth: 3, salesOku: 6000, price2005: 900, pbr: 4.5, extra: { previousStandard: "J-GAAP", switchYear: 2018 } },
  { code: "6301", name: "大和重機（サンプル）", market: "Prime", industry: "機械", standard: "US-GAAP", fyMonth: 3, salesOku: 16000, price2005: 1200, pbr: 1.4, extra: { traits: ["cyclical"] } },
  { code: "6367", name: "空調エンジニアリング（サンプル）", market: "Prime", industry: "機械", standard: "IFRS", fyMonth: 3, salesOku: 8000, price2005: 2900, pbr: 2.3, extra: { previousStandard: "J-GAAP", switchYear: 2019 } },
  { code: "6501", name: "日本総合電機（サンプル）", market: "Prime", industry: "電気機器", standard: "IFRS", fyMonth: 3, salesOku: 90000, price2005: 1300, pbr: 1.3, extra: { previousStandard: "US-GAAP", switchYear: 2015, traits: ["cyclical"] } },
  { code: "6758", name: "ソラ電子（サンプル）", market: "Prime", industry: "電気機器", standard: "US-GAAP", fyMonth: 3, salesOku: 70000, price2005: 800, pbr: 1.6, extra: { traits: ["cyclical"] } },
  { code: "6861", name: "精密センサー（サンプル）", market: "Prime", industry: "電気機器", standard: "J-GAAP", fyMonth: 3, salesOku: 1800, price2005: 12000, pbr: 4.0, extra: { events: [shareEvent("2023-03-29", 2, "1:2")] } },
  { code: "6981", name: "村雲製作所（サンプル）", market: "Prime", industry: "電気機器", standard: "J-GAAP", fyMonth: 3, salesOku: 5000, price2005: 2200, pbr: 2.0 },
  { code: "7011", name: "東海重工業（サンプル）", market: "Prime", industry: "機械", standard: "IFRS", fyMonth: 3, salesOku: 28000, price2005: 300, pbr: 0.9, extra: { previousStandard: "J-GAAP", switchYear: 2019 } },
  { code: "7095", name: "マーケットAI（サンプル）", market: "Growth", industry: "サービス業", standard: "J-GAAP", fyMonth: 12, salesOku: 12, price2005: 1500, pbr: 5.5, extra: { growth: 0.3, listedFrom: "2020-03-18", firstFiscalYear: 2015, quarterlyFromYear: 2019, traits: ["dividend-starter"] } },
  { code: "7203", name: "大和自動車（サンプル）", market: "Prime", industry: "輸送用機器", standard: "IFRS", fyMonth: 3, salesOku: 180000, price2005: 800, pbr: 1.2, extra: { previousStandard: "US-GAAP", switchYear: 2021, listedOn: ["XTKS", "XNGO"], events: [shareEvent("2021-09-28", 5, "1:5")] } },
  { code: "7267", name: "本郷技研工業（サンプル）", market: "Prime", industry: "輸送用機器", standard: "IFRS", fyMonth: 3, salesOku: 90000, price2005: 1300, pbr: 0.9, extra: { previousStandard: "US-GAAP", switchYear: 2015 } },
  { code: "7269", name: "浜松モーター（サンプル）", market: "Prime", industry: "輸送用機器", standard: "J-GAAP", fyMonth: 3, salesOku: 27000, price2005: 450, pbr: 1.1 },
  { code: "7741", name: "光学精機（サンプル）", market: "Prime", industry: "精密機器", standard: "IFRS", fyMonth: 3, salesOku: 3500, price2005: 900, pbr: 3.0, extra: { previousStandard: "J-GAAP", switchYear: 2019 } },
  { code: "7832", name: "玩具工房（サンプル）", market: "Prime", industry: "その他製品", standard: "J-GAAP", fyMonth: 3, salesOku: 4000, price2005: 600, pbr: 1.8 },
  { code: "7974", name: "遊楽堂（サンプル）", market: "Prime", industry: "その他製品", standard: "J-GAAP", fyMonth: 3, salesOku: 5000, price2005: 1200, pbr: 3.2, extra: { events: [shareEvent("2022-09-28", 10, "1:10")] } },
  { code: "8001", name: "東西商事（サンプル）", market: "Prime", industry: "卸売業", standard: "IFRS", fyMonth: 3, salesOku: 22000, price2005: 700, pbr: 1.0, extra: { previousStandard: "US-GAAP", switchYear: 2014 } },
  { code: "8058", name: "三和物産（サンプル）", market: "Prime", industry: "卸売業", standard: "IFRS", fyMonth: 3, salesOku: 50000, price2005: 500, pbr: 1.0, extra: { previousStandard: "US-GAAP", switchYear: 2011 } },
  { code: "8166", name: "紳士服の青葉（サンプル）", market: "Standard", industry: "小売業", standard: "J-GAAP", fyMonth: 2, salesOku: 700, price2005: 2500, pbr: 0.5, extra: { events: [shareEvent("2017-08-28", 0.1, "10:1")] } },
  { code: "8267", name: "まちなかリテール（サンプル）", market: "Prime", industry: "小売業", standard: "J-GAAP", fyMonth: 2, salesOku: 45000, price2005: 1800, pbr: 1.3 },
  { code: "8306", name: "三つ葉フィナンシャル・グループ（サンプル）", market: "Prime", industry: "銀行業", standard: "J-GAAP", fyMonth: 3, salesOku: 45000, price2005: 900, pbr: 0.6 },
  { code: "8331", name: "千葉湾銀行（サンプル）", market: "Prime", industry: "銀行業", standard: "J-GAAP", fyMonth: 3, salesOku: 2300, price2005: 750, pbr: 0.5 },
  { code: "8591", name: "オリエント・リース（サンプル）", market: "Prime", industry: "その他金融業", standard: "US-GAAP", fyMonth: 3, salesOku: 10000, price2005: 1100, pbr: 0.8 },
  { code: "8604", name: "大手町証券（サンプル）", market: "Prime", industry: "証券、商品先物取引業", standard: "US-GAAP", fyMonth: 3, salesOku: 11000, price2005: 700, pbr: 0.7, extra: { traits: ["cyclical"] } },
  { code: "8630", name: "安心損保ホールディングス（サンプル）", market: "Prime", industry: "保険業", standard: "J-GAAP", fyMonth: 3, salesOku: 25000, price2005: 1100, pbr: 0.8 },
  { code: "8801", name: "丸の内不動産（サンプル）", market: "Prime", industry: "不動産業", standard: "J-GAAP", fyMonth: 3, salesOku: 9000, price2005: 1900, pbr: 1.6 },
  { code: "9020", name: "北辰鉄道（サンプル）", market: "Prime", industry: "陸運業", standard: "J-GAAP", fyMonth: 3, salesOku: 26000, price2005: 2300, pbr: 1.3, extra: { traits: ["covid-hit"] } },
  { code: "9064", name: "やまと運輸ホールディングス（サンプル）", market: "Prime", industry: "陸運業", standard: "J-GAAP", fyMonth: 3, salesOku: 12000, price2005: 1600, pbr: 1.2 },
  { code: "9101", name: "瑞穂海運（サンプル）", market: "Prime", industry: "海運業", standard: "J-GAAP", fyMonth: 3, salesOku: 20000, price2005: 800, pbr: 0.9, extra: { traits: ["cyclical"] } },
  { code: "9202", name: "翼航空（サンプル）", market: "Prime", industry: "空運業", standard: "IFRS", fyMonth: 3, salesOku: 13000, price2005: 2400, pbr: 1.3, extra: { previousStandard: "J-GAAP", switchYear: 2018, traits: ["covid-hit"] } },
  { code: "9279", name: "宅配キッチン（サンプル）", market: "Standard", industry: "小売業", standard: "J-GAAP", fyMonth: 10, salesOku: 150, price2005: 900, pbr: 1.3, extra: { consolidated: false, traits: ["eps-unreported-early"] } },
  { code: "9301", name: "港湾倉庫（サンプル）", market: "Prime", industry: "倉庫・運輸関連業", standard: "J-GAAP", fyMonth: 3, salesOku: 1800, price2005: 500, pbr: 0.7, extra: { traits: ["eps-unreported-early"] } },
  { code: "9432", name: "日本テレコム通信（サンプル）", market: "Prime", industry: "情報・通信業", standard: "IFRS", fyMonth: 3, salesOku: 100000, price2005: 110, pbr: 1.2, extra: { previousStandard: "US-GAAP", switchYear: 2019 } },
  { code: "9433", name: "ケイ通信（サンプル）", market: "Prime", industry: "情報・通信業", standard: "IFRS", fyMonth: 3, salesOku: 35000, price2005: 1500, pbr: 1.7, extra: { previousStandard: "J-GAAP", switchYear: 2016 } },
  { code: "9501", name: "東都電力（サンプル）", market: "Prime", industry: "電気・ガス業", standard: "J-GAAP", fyMonth: 3, salesOku: 52000, price2005: 2600, pbr: 1.0, extra: { listedOn: ["XTKS", "XSAP"], traits: ["covid-hit"] } },
  { code: "9531", name: "関東ガス（サンプル）", market: "Prime", industry: "電気・ガス業", standard: "J-GAAP", fyMonth: 3, salesOku: 14000, price2005: 2000, pbr: 1.1, extra: { listedOn: ["XTKS", "XFKA"] } },
  { code: "9983", name: "ファストウェア（サンプル）", market: "Prime", industry: "小売業", standard: "IFRS", fyMonth: 8, salesOku: 3800, price2005: 4000, pbr: 4.0, extra: { previousStandard: "J-GAAP", switchYear: 2014, events: [shareEvent("2026-02-25", 3, "1:3")] } },
  { code: "130A", name: "クラウドワン（サンプル）", market: "Growth", industry: "情報・通信業", standard: "J-GAAP", fyMonth: 12, salesOku: 6, price2005: 900, pbr: 7.0, extra: { growth: 0.4, listedFrom: "2024-03-27", firstFiscalYear: 2019, quarterlyFromYear: 2022 } },
  { code: "8951", name: "サンプル・ビルディング投資法人", market: null, industry: "REIT", standard: "J-GAAP", fyMonth: 12, salesOku: 400, price2005: 300000, pbr: 1.3 },
  { code: "3462", name: "サンプル・レジデンス投資法人", market: null, industry: "REIT", standard: "J-GAAP", fyMonth: 8, salesOku: 180, price2005: 90000, pbr: 1.1, extra: { listedFrom: "2015-07-15", firstFiscalYear: 2011, quarterlyFromYear: 2016 } },
];

// 4689: split inside the weekly-margin window of an earlier data clock (2025-03).
const NETLINE_EVENTS = [shareEvent("2025-03-27", 2, "1:2")];
/**
 * Splits announced but not yet effective on the data clock (weekly margin split_events only, with
 * applied_from_report_date null). 9983 is `applied` in the default 52-week window (its 2026-02
 * split), so its announced split is visible at the default clock; 4689's only with an earlier clock.
 */
export const ANNOUNCED_EVENTS: ReadonlyMap<string, ShareEvent[]> = new Map([
  ["4689", [shareEvent("2026-12-25", 2, "1:2")]],
  ["9983", [shareEvent("2027-02-24", 2, "1:2")]],
]);
// 3697: split whose exchange notation contradicts the price step (margin undeterminable).
const DATATECH_EVENTS = [shareEvent("2025-06-26", 2, "1:2")];
// 5401: 10:1 consolidation.
const STEEL_EVENTS = [shareEvent("2015-09-25", 0.1, "10:1")];

const PREFECTURES = [
  "東京都千代田区",
  "東京都港区",
  "東京都中央区",
  "大阪府大阪市北区",
  "愛知県名古屋市中村区",
  "神奈川県横浜市西区",
  "福岡県福岡市博多区",
  "北海道札幌市中央区",
];

function edinetFor(index: number): string {
  return `E9${String(1001 + index * 7).padStart(4, "0")}`;
}

function buildSpecs(): CompanySpec[] {
  return ROWS.map((row, index) => {
    const extra = row.extra ?? {};
    const events =
      extra.events ??
      (row.code === "4689"
        ? NETLINE_EVENTS
        : row.code === "3697"
          ? DATATECH_EVENTS
          : row.code === "5401"
            ? STEEL_EVENTS
            : []);
    const listedFrom = extra.listedFrom ?? LONG_LISTED;
    const exchange = extra.exchange ?? "XTKS";
    const spec: CompanySpec = {
      code: row.code,
      name: row.name,
      market: row.market,
      industry: row.industry,
      edinet: edinetFor(index),
      standard: row.standard,
      fyMonth: row.fyMonth,
      exchange,
      listedOn: extra.listedOn ?? [exchange],
      listedFrom,
      firstFiscalYear: extra.firstFiscalYear ?? 2005,
      quarterlyFromYear: extra.quarterlyFromYear ?? 2005,
      salesOku: row.salesOku,
      growth: extra.growth ?? 0.01 + ((index * 37) % 50) / 1000,
      grossMargin: 0.18 + ((index * 53) % 40) / 100,
      sgaRatio: 0,
      pbr: row.pbr,
      price2005: row.price2005,
      payout: 0.25 + ((index * 29) % 25) / 100,
      vol: 0.012 + ((index * 17) % 12) / 1000,
      events,
      consolidated: extra.consolidated ?? true,
      cfSemiannualOnly: index % 3 === 1,
      address: `${PREFECTURES[index % PREFECTURES.length] ?? ""}見本町${(index % 5) + 1}丁目${(index % 9) + 1}番${(index % 20) + 1}号`,
      traits: new Set(extra.traits ?? []),
    };
    // Operating margin between 6% and 18% of sales before noise.
    spec.sgaRatio = math.max(0.02, spec.grossMargin - (0.06 + ((index * 13) % 13) / 100));
    if (extra.previousStandard) spec.previousStandard = extra.previousStandard;
    if (extra.switchYear !== undefined) spec.switchYear = extra.switchYear;
    if (extra.fyChange) spec.fyChange = extra.fyChange;
    if (row.industry === "REIT") {
      spec.grossMargin = 0.55;
      spec.sgaRatio = 0.1;
      spec.payout = 0.98;
    }
    return spec;
  });
}

let specsCache: CompanySpec[] | undefined;

/** The operating companies and REITs (corporations with a statutory filer), ascending by code. */
export function companySpecs(): CompanySpec[] {
  specsCache ??= buildSpecs().sort((a, b) => (a.code < b.code ? -1 : 1));
  return specsCache;
}

/** ETFs: no statutory filer (edinet_code null), market null. */
export const ETFS: readonly { code: string; name: string; price2005: number; vol: number }[] = [
  { code: "1306", name: "TOPIX連動型上場投資信託（サンプル）", price2005: 1150, vol: 0.011 },
  { code: "1321", name: "日経225連動型上場投資信託（サンプル）", price2005: 11800, vol: 0.012 },
];

/**
 * A non-primary second share class: listed but not addressable for corporation endpoints
 * (openapi.json info.description).
 */
export const SECOND_CLASS = {
  code: "2594",
  of: "2593",
  name: "若葉飲料 第1種優先株式（サンプル）",
};

/** A corporation that files but is not listed (a competitor replaced by its listed parent in peers). */
const UNLISTED_CORPORATION: CorporationRecord = {
  edinet_code: "E99990",
  name_ja: "大和モビリティ販売株式会社（サンプル・非上場）",
  address_ja: "愛知県名古屋市中村区見本町9丁目9番9号",
  primary_code: null,
  accounting_standard: "J-GAAP",
  fiscal_year_end_month: 3,
};

export function sectorOf(industry: string): string | null {
  return TSE33_TO_TSE17[industry] ?? null;
}

/** The securities list (openapi.json SecurityListItem plus listing facts), ascending by code. */
export function buildSecurities(): SecurityRecord[] {
  const out: SecurityRecord[] = companySpecs().map((c) => ({
    code: c.code,
    name: c.name,
    market: c.market,
    industry: c.industry,
    sector: sectorOf(c.industry),
    edinet_code: c.edinet,
    is_primary: true,
    exchange: c.exchange,
    listed_on: c.listedOn,
  }));
  for (const etf of ETFS) {
    out.push({
      code: etf.code,
      name: etf.name,
      market: null,
      industry: "ETF",
      sector: null,
      edinet_code: null,
      is_primary: true,
      exchange: "XTKS",
      listed_on: ["XTKS"],
    });
  }
  const parent = companySpecs().find((c) => c.code === SECOND_CLASS.of);
  if (parent) {
    out.push({
      code: SECOND_CLASS.code,
      name: SECOND_CLASS.name,
      market: parent.market,
      industry: parent.industry,
      sector: sectorOf(parent.industry),
      edinet_code: parent.edinet,
      is_primary: false,
      exchange: "XTKS",
      listed_on: ["XTKS"],
    });
  }
  return out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function buildCorporations(): Map<string, CorporationRecord> {
  const map = new Map<string, CorporationRecord>();
  for (const c of companySpecs()) {
    map.set(c.edinet, {
      edinet_code: c.edinet,
      name_ja: c.name.replace("（サンプル）", "株式会社（サンプル）"),
      address_ja: c.address,
      primary_code: c.code,
      accounting_standard: c.standard,
      fiscal_year_end_month: c.fyChange ? c.fyChange.newMonth : c.fyMonth,
    });
  }
  map.set(UNLISTED_CORPORATION.edinet_code, UNLISTED_CORPORATION);
  return map;
}

/** Price basis factor at a date: old-basis shares times this = current-basis shares (ex-date based). */
export function priceFactor(events: readonly ShareEvent[], date: string): number {
  let f = 1;
  for (const e of events) if (date < e.exDate) f *= e.ratio;
  return f;
}

/** Share-count basis factor at a date (effective-date based, as filings report share counts). */
export function shareFactor(events: readonly ShareEvent[], date: string): number {
  let f = 1;
  for (const e of events) if (date < e.effectiveDate) f *= e.ratio;
  return f;
}
