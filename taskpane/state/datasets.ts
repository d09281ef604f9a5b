// Table-import datasets: their parameters (openapi.json parameter names) and how each is fetched
// and shaped into rows.

import type { Lang } from "../i18n/language";
import type { Attribution, Dataset, OperationId } from "../../src/contract";
import type { PaginatedOperationId, ParamsOf } from "../../src/client";
import { isoToSerial } from "../../src/excel/dates";
import { widestFinancials } from "../../src/domain/financials-window";
import { resolveEdinetCode } from "../../src/domain/network-rules";
import { arrayProp, type PaneClient } from "./pane-client";
import {
  COMPANY_CODE_PATTERN,
  contractQuery,
  isEdinetCode,
  limitOf,
  paramEnum,
  paramRule,
} from "./contract-params";
import { JSF_TABLES } from "./function-lists";
import { defaultPriceWindow } from "./price-window";
import { shapeTable, type FieldUnitInfo, type TableData } from "./table-data";
import { MONEY_UNITS, isMoneyUnit } from "../../src/excel/money-units";
import { isFormatMoneyUnit, type FormatMoneyUnit } from "../../src/excel/number-formats";
import { TSE33_INDUSTRIES } from "../../src/contract/tse-industries";

export type DatasetId =
  | "financials"
  | "valuations"
  | "prices"
  | "dividends"
  | "segments"
  | "disclosures"
  | "officers"
  | "peers"
  | "margin"
  | "jsf"
  | "securities"
  | "rankings"
  | "screening";

/** Datasets offered in the import form (screening is imported from its own form). */
export const IMPORT_DATASETS: readonly DatasetId[] = [
  "financials",
  "valuations",
  "prices",
  "dividends",
  "segments",
  "disclosures",
  "officers",
  "peers",
  "margin",
  "jsf",
  "securities",
  "rankings",
];

/** Upper bound of pages one import follows (e.g. 1,000 x 500 price rows). */
const IMPORT_MAX_PAGES = 1_000;

type ParamKind = "text" | "int" | "select" | "date" | "month";

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  required?: boolean;
  default?: string;
  options?: readonly string[];
  min?: number;
  max?: number;
  /** regular expression the value must match (openapi.json parameter pattern). */
  pattern?: string;
  /** earliest date accepted (openapi.json: dates from 2005-01-01). */
  minDate?: string;
  maxLength?: number;
  /** i18n key of the label when it differs from `param_<name>`. */
  labelKey?: string;
}

/** openapi.json date and month patterns, shown as date and month inputs. */
const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";
const MONTH_PATTERN = "^\\d{4}/(0[1-9]|1[0-2])$";

/**
 * A form field from the contract's rule of `op`'s parameter `name` (OPERATIONS): an enum is a
 * list (with an empty "any" first when the API has no default), an integer a bounded number,
 * a date or month pattern a date or month field, any other pattern a checked text; `extra`
 * overrides (the pane's own defaults and labels).
 */
function fromContract(op: OperationId, name: string, extra: Partial<ParamSpec> = {}): ParamSpec {
  const r = paramRule(op, name);
  const spec: ParamSpec = { name, kind: "text" };
  if (r.required) spec.required = true;
  if (r.default !== undefined) spec.default = String(r.default);
  if (r.enum) {
    spec.kind = "select";
    spec.options = r.default === undefined && !r.required ? ["", ...r.enum] : r.enum;
  } else if (r.type === "integer") {
    spec.kind = "int";
    if (r.minimum !== undefined) spec.min = r.minimum;
    if (r.maximum !== undefined) spec.max = r.maximum;
  } else if (r.pattern === DATE_PATTERN) spec.kind = "date";
  else if (r.pattern === MONTH_PATTERN) spec.kind = "month";
  if (r.pattern !== undefined && !r.enum) spec.pattern = r.pattern;
  if (r.minDate !== undefined) spec.minDate = r.minDate;
  if (r.maxLength !== undefined) spec.maxLength = r.maxLength;
  return { ...spec, ...extra };
}

/**
 * A company: security code or EDINET code (openapi.json getFinancials: exactly one of the two),
 * named security_code like the other code fields; the pane resolves an EDINET code where the
 * operation needs one.
 */
const COMPANY: ParamSpec = {
  name: "security_code",
  labelKey: "param_company",
  kind: "text",
  required: true,
  pattern: COMPANY_CODE_PATTERN,
};
/**
 * The unit the table's amounts of yen are shown in (not an API parameter): the cells keep yen and
 * a number format shows the unit, so only the units a format can show (number-formats.ts
 * FormatMoneyUnit: 円, 千円, 百万円).
 */
const SCALE: ParamSpec = {
  name: "unit",
  kind: "select",
  default: "million_jpy",
  options: MONEY_UNITS.filter(isFormatMoneyUnit),
};

/**
 * The unit of a table's amounts from the form's `unit`: a definition stored with 億円 (offered
 * before tables kept yen) shows 百万円, the nearest unit a format can show; none is 円.
 */
function tableScale(unit: string | undefined): FormatMoneyUnit {
  if (unit === "hundred_million_jpy") return "million_jpy";
  return isMoneyUnit(unit) && isFormatMoneyUnit(unit) ? unit : "jpy";
}

/** The field dictionary (openapi.json x-money-kind) of each dataset that has one. */
const DICTIONARY_OF: Partial<Record<DatasetId, Dataset>> = {
  financials: "financials",
  valuations: "valuations",
  prices: "prices",
  dividends: "dividends",
  segments: "segments",
  margin: "margin",
  jsf: "jsf",
};

/** openapi.json parameters per dataset (plus `unit`, the money scale of the table). */
export const DATASET_PARAMS: Record<DatasetId, readonly ParamSpec[]> = {
  financials: [
    COMPANY,
    fromContract("getFinancials", "period"),
    fromContract("getFinancials", "years"),
    fromContract("getFinancials", "as_of"),
    SCALE,
  ],
  valuations: [
    fromContract("getValuations", "security_code"),
    fromContract("getValuations", "years"),
    SCALE,
  ],
  prices: [
    fromContract("getPrices", "code"),
    fromContract("getPrices", "from"),
    fromContract("getPrices", "to"),
  ],
  dividends: [
    COMPANY,
    fromContract("getDividends", "from_fiscal_year"),
    fromContract("getDividends", "to_fiscal_year"),
  ],
  segments: [
    COMPANY,
    fromContract("getSegments", "fiscal_year"),
    fromContract("getSegments", "period"),
    SCALE,
  ],
  disclosures: [
    fromContract("listSecurityDisclosures", "code"),
    fromContract("listSecurityDisclosures", "from"),
    fromContract("listSecurityDisclosures", "to"),
    fromContract("listSecurityDisclosures", "document_type"),
  ],
  officers: [fromContract("getOfficers", "code")],
  // Every peer the API gives (its maximum), not its default 8: a table is for reading them all.
  peers: [
    fromContract("getPeers", "security_code"),
    fromContract("getPeers", "limit", { default: String(paramRule("getPeers", "limit").maximum) }),
  ],
  margin: [
    fromContract("getWeeklyMarginBalance", "code"),
    fromContract("getWeeklyMarginBalance", "period"),
  ],
  jsf: [
    fromContract("getJsfMarginDaily", "code"),
    fromContract("getJsfMarginDaily", "period"),
    fromContract("getJsfMarginDaily", "to"),
    fromContract("getJsfMarginDaily", "exchange"),
    // Which array of the answer becomes the table (not an API parameter).
    { name: "table", kind: "select", default: "days", options: JSF_TABLES },
  ],
  securities: [
    fromContract("listSecurities", "q"),
    fromContract("listSecurities", "market"),
    // The 33 official names (the API takes any text; a list cannot be mistyped).
    {
      name: "industry",
      kind: "select",
      default: "",
      options: ["", ...TSE33_INDUSTRIES.map((i) => i.ja)],
    },
  ],
  rankings: [
    fromContract("getRankings", "metric", { default: paramEnum("getRankings", "metric")[0] ?? "" }),
    fromContract("getRankings", "limit"),
  ],
  screening: [],
};

/** Datasets whose import can be charted (taskpane/excel/chart.ts). */
export const CHARTABLE: ReadonlySet<DatasetId> = new Set(["prices", "valuations"]);

export type ParamValues = Record<string, string>;

/**
 * The form's starting values; prices open on the last year (price-window.ts), not on every day
 * since 2005 (eleven requests for a table nobody reads whole).
 */
export function defaultParams(dataset: DatasetId, now: Date = new Date()): ParamValues {
  const out: ParamValues = {};
  for (const p of DATASET_PARAMS[dataset]) out[p.name] = p.default ?? "";
  if (dataset === "prices") Object.assign(out, defaultPriceWindow(now));
  return out;
}

export type ParamProblem = { param: string; reason: "missing" | "invalid_format" | "out_of_range" };

/**
 * Inputs as the API wants them: full-width digits and letters typed with a Japanese IME become
 * half-width (NFKC: "７２０３" → "7203"), surrounding spaces go.
 * @example normalizeInput(" ７２０３ ") // "7203"
 */
export function normalizeInput(value: string): string {
  return value.normalize("NFKC").trim();
}

/** Every parameter through normalizeInput, before checks, requests and the stored definition. */
export function normalizeParams(values: ParamValues): ParamValues {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, normalizeInput(v)]));
}

/** Local checks before any request (the API's own checks still apply). */
export function checkParams(dataset: DatasetId, values: ParamValues): ParamProblem[] {
  const problems: ParamProblem[] = [];
  for (const p of DATASET_PARAMS[dataset]) {
    const v = (values[p.name] ?? "").trim();
    if (v === "") {
      if (p.required) problems.push({ param: p.name, reason: "missing" });
      continue;
    }
    const reason = problemOf(p, v);
    if (reason) problems.push({ param: p.name, reason });
  }
  return problems;
}

/** What is wrong with a non-empty value by its contract rule, if anything. */
function problemOf(p: ParamSpec, v: string): ParamProblem["reason"] | undefined {
  if (p.pattern && !new RegExp(p.pattern).test(v.toUpperCase())) return "invalid_format";
  if (p.kind === "int") {
    const n = Number(v);
    if (!Number.isInteger(n)) return "invalid_format";
    if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max))
      return "out_of_range";
  }
  // A day the calendar does not have (2024-02-30) matches the pattern but is no date.
  if (p.kind === "date" && isoToSerial(v) === undefined) return "invalid_format";
  if (p.minDate !== undefined && v < p.minDate) return "out_of_range";
  if (p.maxLength !== undefined && v.length > p.maxLength) return "out_of_range";
  if (p.kind === "select" && p.options && !p.options.includes(v)) return "invalid_format";
  return undefined;
}

export interface FetchContext {
  client: PaneClient;
  lang: Lang;
  headers?: "keys" | "ja";
  signal?: AbortSignal;
  /** rows fetched so far (paged datasets report after each page). */
  onProgress?: (rows: number) => void;
}

function upperCode(values: ParamValues, name: string): string {
  return (values[name] ?? "").trim().toUpperCase();
}

/** What every table answer may carry besides its rows (openapi.json FieldUnit, Attribution). */
interface TableAnswer {
  fields?: readonly FieldUnitInfo[];
  attribution?: Attribution;
}

function fieldsOf(body: TableAnswer): FieldUnitInfo[] {
  return [...(body.fields ?? [])];
}

function attributionOf(body: TableAnswer): TableData["attribution"] {
  const a = body.attribution;
  return a
    ? { source_label: a.source_label, license_note: a.license_note, processed_by: a.processed_by }
    : undefined;
}

interface Raw {
  rows: Record<string, unknown>[];
  fields: FieldUnitInfo[];
  attribution: TableData["attribution"];
  omit?: string[];
  extraUnits?: Record<string, string>;
}

async function collectPages<O extends PaginatedOperationId>(
  ctx: FetchContext,
  op: O,
  query: ParamsOf<O>,
  rowsKey: string,
): Promise<Raw> {
  const rows: Record<string, unknown>[] = [];
  let fields: FieldUnitInfo[] = [];
  let attribution: TableData["attribution"];
  // "Import as table" means every page (the user can Cancel); the client's default page cap would
  // cut a long import short without a word.
  const options = { maxPages: IMPORT_MAX_PAGES, ...(ctx.signal ? { signal: ctx.signal } : {}) };
  for await (const page of ctx.client.paginate(op, query, options)) {
    rows.push(...arrayProp(page, rowsKey));
    if (fields.length === 0) fields = fieldsOf(page);
    attribution ??= attributionOf(page);
    ctx.onProgress?.(rows.length);
    if (ctx.signal?.aborted) break;
  }
  return { rows, fields, attribution };
}

async function fetchRaw(dataset: DatasetId, v: ParamValues, ctx: FetchContext): Promise<Raw> {
  const c = ctx.client;
  const o = ctx.signal ? { signal: ctx.signal } : {};
  const one = (body: TableAnswer, key: string, extra: Partial<Raw> = {}): Raw => ({
    rows: arrayProp(body, key),
    fields: fieldsOf(body),
    attribution: attributionOf(body),
    ...extra,
  });
  const edinet = async (): Promise<string> => {
    const code = upperCode(v, "security_code");
    return isEdinetCode(code) ? code : resolveEdinetCode(c, code, o);
  };
  switch (dataset) {
    case "financials": {
      const code = upperCode(v, "security_code");
      const id = isEdinetCode(code) ? { edinet_code: code } : { security_code: code };
      const body = await widestFinancials(
        c,
        { ...id, ...contractQuery("getFinancials", v, ["period", "years", "as_of"]) },
        o,
      );
      return one(body, "periods", { omit: ["scope_exceptions", "standard_exceptions"] });
    }
    case "valuations":
      return one(
        await c.valuations(
          {
            security_code: upperCode(v, "security_code"),
            ...contractQuery("getValuations", v, ["years"]),
          },
          o,
        ),
        "history",
      );
    case "prices":
      return collectPages(
        ctx,
        "getPrices",
        {
          code: upperCode(v, "code"),
          ...contractQuery("getPrices", v, ["from", "to"]),
          // The largest page: the fewest requests for a long window.
          limit: limitOf("getPrices").max,
        },
        "prices",
      );
    case "dividends": {
      const body = await c.dividends(
        {
          edinet_code: await edinet(),
          ...contractQuery("getDividends", v, ["from_fiscal_year", "to_fiscal_year"]),
        },
        o,
      );
      return one(body, "records", { extraUnits: { fiscal_year: "" } });
    }
    case "segments": {
      const body = await c.segments(
        {
          edinet_code: await edinet(),
          ...contractQuery("getSegments", v, ["fiscal_year", "period"]),
        },
        o,
      );
      return one(body, "segments");
    }
    case "disclosures":
      return collectPages(
        ctx,
        "listSecurityDisclosures",
        {
          code: upperCode(v, "code"),
          ...contractQuery("listSecurityDisclosures", v, ["from", "to", "document_type"]),
          limit: limitOf("listSecurityDisclosures").max,
        },
        "disclosures",
      );
    case "officers":
      return one(await c.officers({ code: upperCode(v, "code") }, o), "officers", {
        extraUnits: { tenure_years: "years" },
      });
    case "peers":
      return one(
        await c.peers(
          {
            security_code: upperCode(v, "security_code"),
            ...contractQuery("getPeers", v, ["limit"]),
          },
          o,
        ),
        "peers",
      );
    case "margin":
      return one(
        await c.weeklyMargin(
          { code: upperCode(v, "code"), ...contractQuery("getWeeklyMarginBalance", v, ["period"]) },
          o,
        ),
        "weeks",
      );
    case "jsf": {
      const body = await c.jsfMarginDaily(
        {
          code: upperCode(v, "code"),
          ...contractQuery("getJsfMarginDaily", v, ["period", "to", "exchange"]),
        },
        o,
      );
      const table = v.table && v.table !== "" ? v.table : "days";
      return one(body, table);
    }
    case "securities":
      return collectPages(
        ctx,
        "listSecurities",
        {
          ...contractQuery("listSecurities", v, ["q", "market", "industry"]),
          limit: limitOf("listSecurities").max,
        },
        "securities",
      );
    case "rankings": {
      const query = {
        metric: "gainers" as const,
        ...contractQuery("getRankings", v, ["metric", "limit"]),
      };
      return one(await c.rankings(query, o), "items", {
        extraUnits: {
          close_price: "jpy_per_share",
          change_percent: "percent",
          volume: "shares",
          rank: "",
        },
      });
    }
    case "screening":
      throw new Error("screening is fetched by fetchScreeningTable");
  }
}

/**
 * Screening rows with one column per referenced metric (values from `metrics[]`, openapi.json
 * ScreeningSecurity).
 */
export async function fetchScreeningTable(
  query: ParamsOf<"getScreening">,
  metricUnits: ReadonlyMap<string, { label: string; unit: string | null }>,
  ctx: FetchContext,
): Promise<TableData> {
  const raw = await collectPages(ctx, "getScreening", query, "securities");
  const rows = raw.rows.map((s) => {
    const out: Record<string, unknown> = {
      security_code: s.security_code,
      edinet_code: s.edinet_code,
      name: s.name,
    };
    for (const m of arrayProp(s, "metrics")) {
      if (typeof m.field === "string") out[m.field] = m.value;
    }
    return out;
  });
  const fields: FieldUnitInfo[] = [];
  for (const [key, info] of metricUnits) {
    if (info.unit !== null) fields.push({ key, label: info.label, unit: info.unit });
  }
  return shapeTable(rows, fields, raw.attribution, {
    lang: ctx.lang,
    // Yen shown as yen: /screening/fields gives a unit, not whether a jpy metric is an amount or
    // a price (closePrice), and a money format would show a price as 0.
    scale: "jpy",
    // The pane's header setting applies to screens as to every other import.
    ...(ctx.headers ? { headers: ctx.headers } : {}),
  });
}

/** Fetches one dataset (every page where it pages) and shapes it into a table. */
export async function fetchDatasetTable(
  dataset: DatasetId,
  values: ParamValues,
  ctx: FetchContext,
): Promise<TableData> {
  const raw = await fetchRaw(dataset, values, ctx);
  const scale = tableScale(values.unit);
  const dictionary = DICTIONARY_OF[dataset];
  const extra = Object.fromEntries(
    Object.entries(raw.extraUnits ?? {}).filter(([, u]) => u !== ""),
  );
  const table = shapeTable(raw.rows, raw.fields, raw.attribution, {
    lang: ctx.lang,
    scale,
    ...(ctx.headers ? { headers: ctx.headers } : {}),
    ...(raw.omit ? { omit: raw.omit } : {}),
    ...(dictionary ? { dataset: dictionary } : {}),
    extraUnits: extra,
  });
  if (!raw.rows.length) ctx.onProgress?.(0);
  return table;
}
