// Shapes of the sandbox's deterministic sample dataset: the interface between sandbox/data/ and the routes.
import type { components } from "../../src/contract/generated/api-types";

/** A split (ratio > 1) or consolidation (ratio < 1) of the share count. */
export interface ShareEvent {
  /** Last day with rights (権利付最終日). */
  rightsLastDate: string;
  /** Ex-rights date: prices switch to the new basis here. */
  exDate: string;
  /** Effective date: reported share counts switch to the new basis here. */
  effectiveDate: string;
  /** Shares after / shares before. */
  ratio: number;
  ratioText: string;
}

type S = components["schemas"];

/** Data clock default (18:00 JST). The dataset's last trading day is the day before it. */
export const SANDBOX_DEFAULT_NOW = "2026-11-20T09:00:00Z";

export type Exchange = "XTKS" | "XNGO" | "XFKA" | "XSAP";

/** One listed security (or a non-addressable second share class, is_primary false). */
export interface SecurityRecord {
  code: string;
  name: string;
  market: "Prime" | "Standard" | "Growth" | null;
  /** TSE 33 industry name, or "ETF" / "REIT". */
  industry: string;
  /** TSE 17 sector name; null for ETF / REIT. */
  sector: string | null;
  /** null: no statutory filer (ETF). */
  edinet_code: string | null;
  /** openapi.json info.description: only the primary security of a corporation resolves it. */
  is_primary: boolean;
  /** Main exchange. */
  exchange: Exchange;
  /** All exchanges the security is listed on (main first). */
  listed_on: Exchange[];
}

export interface CorporationRecord {
  edinet_code: string;
  name_ja: string;
  address_ja: string | null;
  /** null: not listed. */
  primary_code: string | null;
  accounting_standard: "J-GAAP" | "IFRS" | "US-GAAP";
  fiscal_year_end_month: number;
}

export interface DisclosureRecord {
  item: S["SecurityDisclosure"];
  security_code: string;
  edinet_code: string | null;
  meta: S["DisclosureDocumentMeta"];
  sections: S["DisclosureDocumentSection"][];
  xbrl_facts: S["DisclosureXbrlFact"][];
}

export interface SegmentRecord {
  row: S["SegmentRow"];
  /**
   * ISO UTC disclosure time of the source document: for the 24-hour rule (openapi.json
   * getSegments).
   */
  source_disclosed_at: string;
}

export interface PersonRecord {
  person_id: string;
  name: string;
  birth_date: string | null;
  current_appointments: S["PersonCurrentAppointment"][];
  appointments: S["PersonAppointment"][];
  compensation: S["PersonCompanyCompensation"][];
}

export interface WeeklyMarginRecord {
  split_adjustment_status: "not-applicable" | "applied" | "undeterminable";
  split_events: S["WeeklyMarginSplitEventExternal"][];
  issued_shares_count: number | null;
  /** Ascending by report_date, at least 2 years. */
  weeks: S["WeeklyMarginBalanceWeek"][];
}

export interface JsfRecord {
  issued_shares_count: number;
  exchange: Exchange;
  /** Ascending by date, at least 13 months. */
  days: S["JsfMarginDailyPoint"][];
  reverse: S["JsfReverseFeeExternal"][];
  other_exchange_reverse: S["JsfOtherExchangeReverseFeeExternal"][];
}

interface FinancialsRecord {
  annual: S["FinancialsPeriod"][];
  quarterly: S["FinancialsPeriod"][];
  semiannual: S["FinancialsPeriod"][];
}

export interface ScreeningMetricValue {
  value: number;
  as_of: string;
}

/** What the screening metrics of a company's security are computed from, besides its prices. */
export interface MetricInput {
  /** The company's EDINET code: its annual financials and dividends in the dataset. */
  edinet: string;
  /** Splits and consolidations, for the share count on today's basis. */
  events: ShareEvent[];
}

/**
 * The dataset's tables: data only (maps, arrays, plain records, no functions), so one generation
 * can be written once with v8.serialize and read back (sandbox/data/tables-file.ts).
 */
export interface DatasetTables {
  /** Ascending by code. */
  securities: SecurityRecord[];
  corporations: Map<string, CorporationRecord>;
  /**
   * By EDINET code; oldest first, the full history. annual is already canonical (TTM / balance-only
   * fill years included, openapi.json getFinancials).
   */
  financials: Map<string, FinancialsRecord>;
  /** By code; ascending by date, trading days from 2005-01-04 to the day before SANDBOX_DEFAULT_NOW. */
  prices: Map<string, S["SecurityDailyPrice"][]>;
  /** By code; history newest first. */
  valuations: Map<string, { history: S["ValuationHistoryPoint"][]; per_5y_avg: number | null }>;
  /** By EDINET code; fiscal_year ascending. */
  dividends: Map<string, S["DividendRecord"][]>;
  /** By EDINET code; already in openapi.json getSegments order. */
  segments: Map<string, { annual: SegmentRecord[]; quarter: SegmentRecord[] }>;
  /** Newest first. */
  disclosures: DisclosureRecord[];
  /** By code; openapi.json getOfficers order: current, nominees, retired. */
  officers: Map<string, S["SecurityOfficer"][]>;
  persons: Map<string, PersonRecord>;
  /** By code; ALL peers ascending by code, requester excluded (the route applies limit). */
  peers: Map<string, S["PeerCompany"][]>;
  /** By code. */
  weeklyMargin: Map<string, WeeklyMarginRecord>;
  /** By code. */
  jsf: Map<string, JsfRecord>;
  screeningFields: S["ScreeningField"][];
  /** By security code, companies only (ETFs and the second share class have none). */
  metricInputs: Map<string, MetricInput>;
}

export interface Dataset extends DatasetTables {
  /**
   * Numeric screening metrics of a security evaluated at a date (YYYY-MM-DD): key -> {value, as_of};
   * missing keys = no value. `resultsPublic(fiscalYear)` says whether a year's annual results are
   * public (the 24-hour rule after its tanshin); undefined, or no function, falls back to "45 days
   * after the year end".
   */
  screeningMetrics(
    code: string,
    asOf: string,
    resultsPublic?: (fiscalYear: string) => boolean | undefined,
  ): Record<string, ScreeningMetricValue>;
}
