// The custom functions' entry and metadata input: one JSDoc-annotated wrapper per KAISHA function.

import { financials as financialsImpl } from "./financials";
import { financialCell } from "./financial-cell";
import { valuation as valuationImpl } from "./valuation";
import { prices as pricesImpl, price as priceImpl } from "./prices";
import { xbrl as xbrlImpl } from "./xbrl";
import { usage as usageImpl } from "./usage";
import { startFunctions } from "./startup";
import { lazyModule } from "./lazy-module";
import { awaitKeyProvider } from "../src/session";

// Rarely used functions: their code is fetched on their first call (functions/lazy-module.ts).
const rankingsModule = lazyModule(() => import(/* webpackChunkName: "fn-rankings" */ "./rankings"));
const screeningModule = lazyModule(() => import(/* webpackChunkName: "fn-screening" */ "./screen"));
const securitiesModule = lazyModule(
  () => import(/* webpackChunkName: "fn-securities" */ "./securities"),
);
const segmentsModule = lazyModule(() => import(/* webpackChunkName: "fn-segments" */ "./segments"));
const dividendsModule = lazyModule(
  () => import(/* webpackChunkName: "fn-dividends" */ "./dividends"),
);
const peersModule = lazyModule(() => import(/* webpackChunkName: "fn-peers" */ "./peers"));
const disclosuresModule = lazyModule(
  () => import(/* webpackChunkName: "fn-disclosures" */ "./disclosures"),
);
const officersModule = lazyModule(() => import(/* webpackChunkName: "fn-officers" */ "./officers"));
const peopleModule = lazyModule(() => import(/* webpackChunkName: "fn-people" */ "./persons"));
const marginModule = lazyModule(() => import(/* webpackChunkName: "fn-margin" */ "./margin"));
const documentModule = lazyModule(() => import(/* webpackChunkName: "fn-document" */ "./document"));
const companyModule = lazyModule(() => import(/* webpackChunkName: "fn-company" */ "./company"));
const fieldsModule = lazyModule(() => import(/* webpackChunkName: "fn-fields" */ "./fields"));
const attributionModule = lazyModule(
  () => import(/* webpackChunkName: "fn-attribution" */ "./attribution"),
);

// custom-functions-metadata-plugin reads the JSDoc below into functions.json and appends the
// CustomFunctions.associate calls to this file; scripts/functions-ja.js writes functions-ja.json.
// No function is @volatile: caching and coalescing keep recalculation inside the rate limit.

// Custom enums: Excel's AutoComplete suggests these values (Microsoft: custom-functions-custom-enums);
// custom-functions-metadata reads top-level enums only. The parsers still accept the other spellings
// they document (円, 百万円, 古い順, TRUE/FALSE, ...): Excel passes what the user typed.
// `declare`: they are types only (functions.json carries their values), so no enum object is
// emitted onto the runtime page. Never use one as a value (StatementPeriod.annual): it would
// compile, then fail at run time; the functions read the plain strings and numbers Excel passes.
/**
 * FINANCIALS period.
 * @customenum {string}
 */
declare enum StatementPeriod {
  /** Fiscal years (default). */
  annual = "annual",
  /** Q1-Q4 rows, then full-year rows in their own block. */
  quarterly = "quarterly",
  /** H1 rows, then full-year rows in their own block. */
  semiannual = "semiannual",
}

/**
 * FINANCIAL period.
 * @customenum {string}
 */
declare enum ValuePeriod {
  /** Fiscal years (default). */
  annual = "annual",
  /** Single quarters. */
  quarterly = "quarterly",
  /** H1 and full year. */
  semiannual = "semiannual",
  /** Last twelve months: four quarters summed (flows) or the latest balance. */
  LTM = "LTM",
}

/**
 * Quarter of a fiscal year.
 * @customenum {string}
 */
declare enum Quarter {
  /** First quarter. */
  Q1 = "Q1",
  /** Second quarter. */
  Q2 = "Q2",
  /** Third quarter. */
  Q3 = "Q3",
  /** Fourth quarter. */
  Q4 = "Q4",
  /** First half (semiannual). */
  H1 = "H1",
  /** Second half: full year − H1 (semiannual). */
  H2 = "H2",
  /** The whole fiscal year. */
  full_year = "full_year",
}

/**
 * Money unit.
 * @customenum {string}
 */
declare enum MoneyUnit {
  /** Yen (default). */
  jpy = "jpy",
  /** Thousands of yen. */
  thousand_jpy = "thousand_jpy",
  /** Millions of yen. */
  million_jpy = "million_jpy",
  /** Hundreds of millions of yen. */
  hundred_million_jpy = "hundred_million_jpy",
}

/**
 * FINANCIALS layout.
 * @customenum {string}
 */
declare enum Layout {
  /** Items in rows, periods in columns (default). */
  items_down = "items_down",
  /** One row per period. */
  periods_down = "periods_down",
}

/**
 * Header rows.
 * @customenum {number}
 */
declare enum HeadersMode {
  /** Values only. */
  none = 0,
  /** A header row (default). */
  header = 1,
  /** A title row and a header row. */
  title = 2,
}

/**
 * Row order of a time series.
 * @customenum {string}
 */
declare enum Order {
  /** Oldest first (default). */
  asc = "asc",
  /** Newest first. */
  desc = "desc",
}

/**
 * RANKINGS metric.
 * @customenum {string}
 */
declare enum RankingMetric {
  /** Largest rise. */
  gainers = "gainers",
  /** Largest fall. */
  losers = "losers",
  /** Largest volume. */
  volume = "volume",
  /** Limit up. */
  stop_high = "stop-high",
  /** Limit down. */
  stop_low = "stop-low",
}

/**
 * Field-dictionary dataset.
 * @customenum {string}
 */
declare enum FieldDataset {
  /** FINANCIALS / FINANCIAL items. */
  financials = "financials",
  /** VALUATION fields. */
  valuations = "valuations",
  /** PRICES fields. */
  prices = "prices",
  /** SEGMENTS columns. */
  segments = "segments",
  /** DIVIDENDS columns. */
  dividends = "dividends",
  /** MARGIN columns. */
  margin = "margin",
  /** JSFMARGIN columns. */
  jsf = "jsf",
}

/**
 * SEGMENTS period.
 * @customenum {string}
 */
declare enum SegmentPeriod {
  /** Fiscal years (default). */
  annual = "annual",
  /** Quarters. */
  quarter = "quarter",
}

/**
 * ATTRIBUTION dataset.
 * @customenum {string}
 */
declare enum SourceDataset {
  /** SCREEN (default). */
  screening = "screening",
  /** FINANCIALS / FINANCIAL. */
  financials = "financials",
  /** VALUATION. */
  valuations = "valuations",
  /** PRICES / PRICE. */
  prices = "prices",
  /** SEGMENTS. */
  segments = "segments",
  /** DIVIDENDS. */
  dividends = "dividends",
  /** SECURITIES. */
  securities = "securities",
  /** RANKINGS. */
  rankings = "rankings",
  /** PEERS. */
  peers = "peers",
  /** DISCLOSURES. */
  disclosures = "disclosures",
  /** OFFICERS. */
  officers = "officers",
  /** COMPANY. */
  company = "company",
  /** MARGIN. */
  margin = "margin",
  /** JSFMARGIN. */
  jsf = "jsf",
}

void startFunctions();
// In a page (Excel's runtime, the preview), the page's other bundle registers the key after these
// functions: cells called meanwhile (a reopen's first recalculation) wait for it (src/session.ts).
if (typeof document !== "undefined") awaitKeyProvider();

/**
 * Financial statements of a company as a table (items in rows, periods in columns by default), from /financials.
 * @customfunction FINANCIALS FINANCIALS
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [items] Item keys: a comma list, a range, or "*" for all. Default: a standard statement set.
 * @param [period] annual (default), quarterly or semiannual (quarter rows first, full-year rows in a block after them).
 * @param [years] Number of fiscal years, 1-30 (default 10).
 * @param [as_of] Latest fiscal year to include, in FINANCIAL's period forms: 2024/03, 202403, 2024年3月期, a year (periods ending in it), FY-1, 2024年度, 令和6年度, or a date (periods ended by then; not in the future); default latest.
 * @param [unit] Money unit: jpy (default), thousand_jpy, million_jpy, hundred_million_jpy.
 * @param [layout] items_down (default: items in rows) or periods_down.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param invocation Invocation (cancellation and value preview).
 * @returns {any[][]} A table (at once when it is in memory).
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#financials
 */
export function FINANCIALS(
  company: unknown,
  items: unknown[][],
  period: StatementPeriod,
  years: unknown,
  as_of: unknown,
  unit: MoneyUnit,
  layout: Layout,
  headers: HeadersMode,
  order: Order,
  invocation: CustomFunctions.CancelableInvocation,
) {
  // Unannotated: the table or a promise of it (define-table.ts TableResult); the metadata reads
  // the matrix from @returns.
  return financialsImpl(
    company,
    items,
    period,
    years,
    as_of,
    unit,
    layout,
    headers,
    invocation,
    order,
  );
}

/**
 * One financial value of a company for a model cell.
 * @customfunction FINANCIAL FINANCIAL
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param item Item key, e.g. sales, net_income, total_assets (see FIELDS("financials")).
 * @param [fiscal_period] FY0 (latest, default), FY-1, LTM, LTM-1, FQ0, FQ-2, FH0, FH-1, 2024Q2, 2024H1, 2024H2 (full year − H1), 2024/03, 202403, 2024年3月期, 2024年3月期第2四半期, 令和6年3月期, 2024年度 / 令和6年度 (the fiscal year starting in 2024), FY2024, a year, 0/-1, or a date (the latest period, quarter or half ended by that day; not in the future).
 * @param [period] annual (default), quarterly, semiannual or LTM (last four quarters).
 * @param [quarter] Q1, Q2, Q3, Q4, H1, H2 (full year − H1) or full_year.
 * @param [unit] Money unit: jpy (default), thousand_jpy, million_jpy, hundred_million_jpy.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {any} One value (at once when it is in memory).
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#financial
 */
export function FINANCIAL(
  company: unknown,
  item: unknown,
  fiscal_period: unknown,
  period: ValuePeriod,
  quarter: Quarter,
  unit: MoneyUnit,
  invocation: CustomFunctions.CancelableInvocation,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a value, or a promise of it (at once from memory): custom-functions-metadata reads only `any` for that, and matches it to @returns
): any {
  // The defined cell itself (invocation first): a warm cell enters no wrapper on its way.
  return financialCell(invocation, company, item, fiscal_period, period, quarter, unit);
}

/**
 * Annual valuation history (price, market cap, PER, PBR, yields), oldest first by default; "per_5y_avg" alone gives that number.
 * @customfunction VALUATION VALUATION
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [fields] Field keys: a comma list, a range, "*" for all, or "per_5y_avg".
 * @param [years] Number of fiscal years, 1-50 (default 20).
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param [as_of] Latest fiscal year to include, in FINANCIAL's period forms: 2024/03, 2024年3月期, 2024, FY-1, 2024年度, 令和6年度, or a date (not in the future); default latest.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {any[][]} A table (at once when it is in memory).
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#valuation
 */
export function VALUATION(
  company: unknown,
  fields: unknown[][],
  years: unknown,
  headers: HeadersMode,
  order: Order,
  as_of: unknown,
  invocation: CustomFunctions.CancelableInvocation,
) {
  // Unannotated: the table or a promise of it (define-table.ts TableResult); the metadata reads
  // the matrix from @returns.
  return valuationImpl(company, fields, years, headers, invocation, order, as_of);
}

/**
 * Daily prices of a security, every page fetched.
 * @customfunction PRICES PRICES
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [from] First date (default: one year before to).
 * @param [to] Last date (default: latest).
 * @param [fields] Field keys: open, high, low, close, adj_close, volume (default all).
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {any[][]} A table (at once when it is in memory).
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#prices
 */
export function PRICES(
  company: unknown,
  from: unknown,
  to: unknown,
  fields: unknown[][],
  order: Order,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
) {
  // Unannotated: the table or a promise of it (define-table.ts TableResult); the metadata reads
  // the matrix from @returns.
  return pricesImpl(company, from, to, fields, order, headers, invocation);
}

/**
 * One price value: the latest trading day, or the last one on or before a date.
 * @customfunction PRICE PRICE
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [field] close (default), open, high, low, adj_close, volume or date.
 * @param [date] Date, not in the future (default: latest trading day); a day without trades gives the last close before it.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {any} One value (at once when it is in memory).
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#price
 */
export function PRICE(
  company: unknown,
  field: unknown,
  date: unknown,
  invocation: CustomFunctions.CancelableInvocation,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a value, or a promise of it (at once from memory): custom-functions-metadata reads only `any` for that, and matches it to @returns
): any {
  return priceImpl(company, field, date, invocation);
}

/**
 * Market rankings of the latest business day.
 * @customfunction RANKINGS RANKINGS
 * @param metric gainers, losers, volume, stop-high or stop-low.
 * @param [limit] Number of rows, 1-200 (default 100).
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#rankings
 */
export function RANKINGS(
  metric: RankingMetric,
  limit: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return rankingsModule(invocation, (m) => m.rankings(metric, limit, headers, invocation));
}

/**
 * Screens listed securities by metrics, name, sector and industry.
 * @customfunction SCREEN SCREEN
 * @param [filters] Conditions field:op:value[:unit], comma separated or a range, e.g. per:lte:15; percentages as fractions (roe:gte:0.1 or roe:gte:10%).
 * @param [sort_by] Metric key to sort by.
 * @param [sort_order] desc (default) or asc; also 降順 / 昇順, descending / ascending.
 * @param [sector] TSE 17-sector names, comma separated or a range.
 * @param [industry] TSE 33-industry names, comma separated or a range.
 * @param [as_of] Evaluation date (default: now).
 * @param [limit] Number of rows, 1-1000 (default 30).
 * @param [name] Part of the security name.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#screen
 */
export function SCREEN(
  filters: unknown[][],
  sort_by: unknown,
  sort_order: unknown,
  sector: unknown[][],
  industry: unknown[][],
  as_of: unknown,
  limit: unknown,
  name: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return screeningModule(invocation, (m) =>
    m.screen(
      filters,
      sort_by,
      sort_order,
      sector,
      industry,
      as_of,
      limit,
      name,
      headers,
      invocation,
    ),
  );
}

/**
 * The screening metric catalogue: key, label, unit, type, note.
 * @customfunction SCREENFIELDS SCREENFIELDS
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#screenfields
 */
export function SCREENFIELDS(
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return screeningModule(invocation, (m) => m.screenFields(headers, invocation));
}

/**
 * The field dictionary of a dataset: key, Japanese label, unit, and for percentages the scale of the cells (no request).
 * @customfunction FIELDS FIELDS
 * @param dataset financials, valuations, prices, segments, dividends, margin or jsf.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#fields
 */
export function FIELDS(
  dataset: FieldDataset,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return fieldsModule(invocation, (m) => m.fields(dataset, headers, invocation));
}

/**
 * Listed securities ascending by code.
 * @customfunction SECURITIES SECURITIES
 * @param [q] Part of the name or code.
 * @param [market] Prime, Standard or Growth.
 * @param [industry] TSE 33-industry name.
 * @param [limit] Number of rows, 1-5000 (default 100).
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#securities
 */
export function SECURITIES(
  q: unknown,
  market: unknown,
  industry: unknown,
  limit: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return securitiesModule(invocation, (m) =>
    m.securities(q, market, industry, limit, headers, invocation),
  );
}

/**
 * A company card: name, codes, market, industry, address and latest key metrics.
 * @customfunction COMPANY COMPANY
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A card (entity) or a one-row table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#company
 */
export function COMPANY(
  company: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return companyModule(invocation, (m) => m.company(company, invocation));
}

/**
 * Segment results of a company.
 * @customfunction SEGMENTS SEGMENTS
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [fiscal_year] Fiscal year, e.g. 2024, 2024/03, FY-1, 2024年度 (default: all).
 * @param [period] annual (default) or quarter.
 * @param [unit] Money unit: jpy (default), thousand_jpy, million_jpy, hundred_million_jpy.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#segments
 */
export function SEGMENTS(
  company: unknown,
  fiscal_year: unknown,
  period: SegmentPeriod,
  unit: MoneyUnit,
  headers: HeadersMode,
  order: Order,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return segmentsModule(invocation, (m) =>
    m.segments(company, fiscal_year, period, unit, headers, invocation, order),
  );
}

/**
 * Annual dividend records (actuals), each with the filing it comes from (doc_id for DOCUMENT / SECTION).
 * @customfunction DIVIDENDS DIVIDENDS
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [from_fiscal_year] First fiscal year, e.g. 2020, FY-4, 2020年度 (default: oldest).
 * @param [to_fiscal_year] Last fiscal year, e.g. 2024, FY0, 令和6年度 (default: latest).
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#dividends
 */
export function DIVIDENDS(
  company: unknown,
  from_fiscal_year: unknown,
  to_fiscal_year: unknown,
  headers: HeadersMode,
  order: Order,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return dividendsModule(invocation, (m) =>
    m.dividends(company, from_fiscal_year, to_fiscal_year, headers, invocation, order),
  );
}

/**
 * Listed competitors of a security.
 * @customfunction PEERS PEERS
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [limit] Number of rows, 1-20 (default 8).
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#peers
 */
export function PEERS(
  company: unknown,
  limit: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return peersModule(invocation, (m) => m.peers(company, limit, headers, invocation));
}

/**
 * Disclosure documents of a security: the latest `limit` ones, oldest first by default.
 * @customfunction DISCLOSURES DISCLOSURES
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [from] First disclosure date.
 * @param [to] Last disclosure date.
 * @param [document_type] Document type prefix (statutory filings only).
 * @param [limit] Number of rows, 1-1000 (default 50).
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#disclosures
 */
export function DISCLOSURES(
  company: unknown,
  from: unknown,
  to: unknown,
  document_type: unknown,
  limit: unknown,
  headers: HeadersMode,
  order: Order,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return disclosuresModule(invocation, (m) =>
    m.disclosures(company, from, to, document_type, limit, headers, invocation, order),
  );
}

/**
 * One part of a disclosure document.
 * @customfunction DOCUMENT DOCUMENT
 * @param doc_id Document id from DISCLOSURES or DIVIDENDS, e.g. S100ABCD.
 * @param [part] meta (default), sections, xbrl or available_sections.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#document
 */
export function DOCUMENT(
  doc_id: unknown,
  part: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return documentModule(invocation, (m) => m.document(doc_id, part, headers, invocation));
}

/**
 * One XBRL fact's value from a disclosure document.
 * @customfunction XBRL XBRL
 * @param doc_id Document id from DISCLOSURES or DIVIDENDS, e.g. S100ABCD.
 * @param element XBRL element name, with or without prefix, e.g. NetSales.
 * @param [context] XBRL context (default: current year).
 * @param invocation Invocation (cancellation and value preview).
 * @returns {any} One value (at once when it is in memory).
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#xbrl
 */
export function XBRL(
  doc_id: unknown,
  element: unknown,
  context: unknown,
  invocation: CustomFunctions.CancelableInvocation,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a value, or a promise of it (at once from memory): custom-functions-metadata reads only `any` for that, and matches it to @returns
): any {
  return xbrlImpl(doc_id, element, context, invocation);
}

/**
 * A section of a disclosure document as plain text, one paragraph per row.
 * @customfunction SECTION SECTION
 * @param doc_id Document id from DISCLOSURES or DIVIDENDS, e.g. S100ABCD.
 * @param section Section id, e.g. business_overview, risk_factors, mda.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#section
 */
export function SECTION(
  doc_id: unknown,
  section: unknown,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return documentModule(invocation, (m) => m.section(doc_id, section, invocation));
}

/**
 * Officers of a security: current, nominees, then retired.
 * @customfunction OFFICERS OFFICERS
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#officers
 */
export function OFFICERS(
  company: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return officersModule(invocation, (m) => m.officers(company, headers, invocation));
}

/**
 * A person's profile and current appointments.
 * @customfunction PERSON PERSON
 * @param person_id Person id from OFFICERS.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#person
 */
export function PERSON(
  person_id: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return peopleModule(invocation, (m) => m.person(person_id, headers, invocation));
}

/**
 * A person's appointment history.
 * @customfunction APPOINTMENTS APPOINTMENTS
 * @param person_id Person id from OFFICERS.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#appointments
 */
export function APPOINTMENTS(
  person_id: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return peopleModule(invocation, (m) => m.appointments(person_id, headers, invocation));
}

/**
 * A person's disclosed compensation history.
 * @customfunction COMPENSATION COMPENSATION
 * @param person_id Person id from OFFICERS.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#compensation
 */
export function COMPENSATION(
  person_id: unknown,
  headers: HeadersMode,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return peopleModule(invocation, (m) => m.compensation(person_id, headers, invocation));
}

/**
 * Weekly exchange margin balances, oldest first.
 * @customfunction MARGIN MARGIN
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [period] 52w (default) or 26w.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#margin
 */
export function MARGIN(
  company: unknown,
  period: unknown,
  headers: HeadersMode,
  order: Order,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return marginModule(invocation, (m) => m.margin(company, period, headers, invocation, order));
}

/**
 * Daily securities-finance lending balances or reverse fees.
 * @customfunction JSFMARGIN JSFMARGIN
 * @param company Company: security code (7203, "130A", 72030), XTKS:7203, 7203.T, 7203 JP, EDINET code ("E02144"), a whole company name (as COMPANY shows it, or its listing name), or a COMPANY / Stocks entity.
 * @param [period] 1m, 3m, 6m or 1y (default).
 * @param [to] Last date of the period (default: latest).
 * @param [exchange] XTKS, XNGO, XFKA or XSAP (default: the listing market).
 * @param [table] days (default), reverse or other_exchange_reverse.
 * @param [headers] 0 none, 1 header row (default), 2 title row and header row.
 * @param [order] asc (default: oldest first, as statements and charts read) or desc (newest first).
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#jsfmargin
 */
export function JSFMARGIN(
  company: unknown,
  period: unknown,
  to: unknown,
  exchange: unknown,
  table: unknown,
  headers: HeadersMode,
  order: Order,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return marginModule(invocation, (m) =>
    m.jsfMargin(company, period, to, exchange, table, headers, invocation, order),
  );
}

/**
 * Remaining API requests of the day.
 * @customfunction USAGE USAGE
 * @param invocation Invocation (cancellation and value preview).
 * @returns {any} One value (at once when it is in memory).
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#usage
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a value, or a promise of it (at once from memory): custom-functions-metadata reads only `any` for that, and matches it to @returns
export function USAGE(invocation: CustomFunctions.CancelableInvocation): any {
  return usageImpl(invocation);
}

/**
 * The source label and licence note to cite for a dataset.
 * @customfunction ATTRIBUTION ATTRIBUTION
 * @param [dataset] financials, valuations, prices, segments, dividends, screening, securities, rankings, peers, disclosures, officers, company, margin or jsf.
 * @param invocation Invocation (cancellation and value preview).
 * @returns {Promise<any[][]>} A table.
 * @cancelable
 * @requiresAddress
 * @helpurl https://localhost:3000/assets/help.html#attribution
 */
export function ATTRIBUTION(
  dataset: SourceDataset,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return attributionModule(invocation, (m) => m.attribution(dataset, invocation));
}
