// Table-import datasets: their parameters (openapi.json parameter names) and how each is fetched
// and shaped into rows.

import type { Lang } from "../i18n/language";
import { arrayProp, prop, type PaneClient, type Query } from "./pane-client";
import { defaultPriceWindow } from "./price-window";
import { shapeTable, type FieldUnitInfo, type TableData } from "./table-data";
import type { MoneyUnit } from "../../src/excel/args";
import { MONEY_UNITS, isMoneyUnit } from "../../src/excel/money-units";
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
  /** regular expression the value must match (spec identifier formats). */
  pattern?: string;
  /** i18n key of the label when it differs from `param_<name>`. */
  labelKey?: string;
}

/**
 * Security code or EDINET code (openapi.json info.description); named security_code like the other
 * code fields.
 */
const COMPANY: ParamSpec = {
  name: "security_code",
  labelKey: "param_company",
  kind: "text",
  required: true,
  pattern: "^([0-9A-Z]{4,5}|[EG]\\d{5})$",
};
const CODE: ParamSpec = { name: "code", kind: "text", required: true, pattern: "^[0-9A-Z]{4,5}$" };
const SCALE: ParamSpec = {
  name: "unit",
  kind: "select",
  default: "million_jpy",
  options: MONEY_UNITS,
};

/** openapi.json parameters per dataset (plus `unit`, the money scale of the table). */
export const DATASET_PARAMS: Record<DatasetId, readonly ParamSpec[]> = {
  financials: [
    COMPANY,
    {
      name: "period",
      kind: "select",
      default: "annual",
      options: ["annual", "quarterly", "semiannual"],
    },
    { name: "years", kind: "int", default: "10", min: 1, max: 30 },
    { name: "as_of", kind: "month" },
    SCALE,
  ],
  valuations: [
    { ...CODE, name: "security_code" },
    { name: "years", kind: "int", default: "20", min: 1, max: 50 },
    SCALE,
  ],
  prices: [CODE, { name: "from", kind: "date" }, { name: "to", kind: "date" }],
  dividends: [
    COMPANY,
    { name: "from_fiscal_year", kind: "int", min: 1900, max: 2200 },
    { name: "to_fiscal_year", kind: "int", min: 1900, max: 2200 },
  ],
  segments: [
    COMPANY,
    { name: "fiscal_year", kind: "int", min: 1990, max: 2100 },
    { name: "period", kind: "select", default: "annual", options: ["annual", "quarter"] },
    SCALE,
  ],
  disclosures: [
    CODE,
    { name: "from", kind: "date" },
    { name: "to", kind: "date" },
    { name: "document_type", kind: "text" },
  ],
  officers: [CODE],
  peers: [
    { ...CODE, name: "security_code" },
    { name: "limit", kind: "int", default: "20", min: 1, max: 20 },
  ],
  margin: [CODE, { name: "period", kind: "select", default: "52w", options: ["26w", "52w"] }],
  jsf: [
    CODE,
    { name: "period", kind: "select", default: "1y", options: ["1m", "3m", "6m", "1y"] },
    { name: "to", kind: "date" },
    {
      name: "exchange",
      kind: "select",
      default: "",
      options: ["", "XTKS", "XNGO", "XFKA", "XSAP"],
    },
    {
      name: "table",
      kind: "select",
      default: "days",
      options: ["days", "reverse", "other_exchange_reverse"],
    },
  ],
  securities: [
    { name: "q", kind: "text" },
    { name: "market", kind: "select", default: "", options: ["", "Prime", "Standard", "Growth"] },
    {
      name: "industry",
      kind: "select",
      default: "",
      options: ["", ...TSE33_INDUSTRIES.map((i) => i.ja)],
    },
  ],
  rankings: [
    {
      name: "metric",
      kind: "select",
      default: "gainers",
      options: ["gainers", "losers", "volume", "stop-high", "stop-low"],
    },
    { name: "limit", kind: "int", default: "100", min: 1, max: 200 },
  ],
  screening: [],
};

/** Datasets whose import can be charted (issue 5 part 4). */
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
    if (p.pattern && !new RegExp(p.pattern).test(v.toUpperCase())) {
      problems.push({ param: p.name, reason: "invalid_format" });
    } else if (p.kind === "int") {
      const n = Number(v);
      if (!Number.isInteger(n)) problems.push({ param: p.name, reason: "invalid_format" });
      else if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max)) {
        problems.push({ param: p.name, reason: "out_of_range" });
      }
    } else if (p.kind === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(v)) {
      problems.push({ param: p.name, reason: "invalid_format" });
    } else if (p.kind === "month" && !/^\d{4}\/(0[1-9]|1[0-2])$/.test(v)) {
      problems.push({ param: p.name, reason: "invalid_format" });
    } else if (p.kind === "select" && p.options && !p.options.includes(v)) {
      problems.push({ param: p.name, reason: "invalid_format" });
    }
  }
  return problems;
}

export interface FetchContext {
  client: PaneClient;
  lang: Lang;
  headers?: "keys" | "ja";
  signal?: AbortSignal;
  /** rows fetched so far (paged datasets report after each page). */
  onProgress?: (rows: number) => void;
}

function q(values: ParamValues, names: readonly string[], ints: readonly string[] = []): Query {
  const out: Query = {};
  for (const n of names) {
    const v = (values[n] ?? "").trim();
    if (v !== "") out[n] = ints.includes(n) ? Number(v) : v;
  }
  return out;
}

function upperCode(values: ParamValues, name: string): string {
  return (values[name] ?? "").trim().toUpperCase();
}

/**
 * openapi.json info.description: an EDINET code is E/G + 5 digits; anything else is taken as a
 * security code.
 */
export function isEdinetCode(code: string): boolean {
  return /^[EG]\d{5}$/.test(code);
}

function fieldsOf(body: unknown): FieldUnitInfo[] {
  return arrayProp(body, "fields").filter(
    (f): f is Record<string, unknown> & FieldUnitInfo =>
      typeof f.key === "string" && typeof f.label === "string" && typeof f.unit === "string",
  );
}

function attributionOf(body: unknown): TableData["attribution"] {
  const a = prop(body, "attribution");
  const s = (k: string): string => {
    const v = prop(a, k);
    return typeof v === "string" ? v : "";
  };
  return a
    ? {
        source_label: s("source_label"),
        license_note: s("license_note"),
        processed_by: s("processed_by"),
      }
    : undefined;
}

interface Raw {
  rows: Record<string, unknown>[];
  fields: FieldUnitInfo[];
  attribution: TableData["attribution"];
  omit?: string[];
  extraUnits?: Record<string, string>;
}

async function collectPages(
  ctx: FetchContext,
  op: string,
  query: Query,
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
  const one = (body: unknown, key: string, extra: Partial<Raw> = {}): Raw => ({
    rows: arrayProp(body, key),
    fields: fieldsOf(body),
    attribution: attributionOf(body),
    ...extra,
  });
  const edinet = async (): Promise<string> => {
    const code = upperCode(v, "security_code");
    return isEdinetCode(code) ? code : c.resolveEdinetCode(code, o);
  };
  switch (dataset) {
    case "financials": {
      const code = upperCode(v, "security_code");
      const id = isEdinetCode(code) ? { edinet_code: code } : { security_code: code };
      const body = await c.financials(
        { ...id, ...q(v, ["period", "years", "as_of"], ["years"]) },
        o,
      );
      return one(body, "periods", { omit: ["scope_exceptions", "standard_exceptions"] });
    }
    case "valuations":
      return one(
        await c.valuations(
          { security_code: upperCode(v, "security_code"), ...q(v, ["years"], ["years"]) },
          o,
        ),
        "history",
      );
    case "prices":
      return collectPages(
        ctx,
        "getPrices",
        { code: upperCode(v, "code"), ...q(v, ["from", "to"]), limit: 500 },
        "prices",
      );
    case "dividends": {
      const body = await c.dividends(
        {
          edinet_code: await edinet(),
          ...q(v, ["from_fiscal_year", "to_fiscal_year"], ["from_fiscal_year", "to_fiscal_year"]),
        },
        o,
      );
      return one(body, "records", { extraUnits: { fiscal_year: "" } });
    }
    case "segments": {
      const body = await c.segments(
        { edinet_code: await edinet(), ...q(v, ["fiscal_year", "period"], ["fiscal_year"]) },
        o,
      );
      return one(body, "segments");
    }
    case "disclosures":
      return collectPages(
        ctx,
        "listSecurityDisclosures",
        { code: upperCode(v, "code"), ...q(v, ["from", "to", "document_type"]), limit: 100 },
        "disclosures",
      );
    case "officers":
      return one(await c.officers({ code: upperCode(v, "code") }, o), "officers", {
        extraUnits: { tenure_years: "years" },
      });
    case "peers":
      return one(
        await c.peers(
          { security_code: upperCode(v, "security_code"), ...q(v, ["limit"], ["limit"]) },
          o,
        ),
        "peers",
      );
    case "margin":
      return one(
        await c.weeklyMargin({ code: upperCode(v, "code"), ...q(v, ["period"]) }, o),
        "weeks",
      );
    case "jsf": {
      const body = await c.jsfMarginDaily(
        { code: upperCode(v, "code"), ...q(v, ["period", "to", "exchange"]) },
        o,
      );
      const table = v.table && v.table !== "" ? v.table : "days";
      return one(body, table);
    }
    case "securities":
      return collectPages(
        ctx,
        "listSecurities",
        { ...q(v, ["q", "market", "industry"]), limit: 500 },
        "securities",
      );
    case "rankings": {
      const metric = v.metric && v.metric !== "" ? v.metric : "gainers";
      return one(await c.rankings({ metric, ...q(v, ["limit"], ["limit"]) }, o), "items", {
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
  query: Query,
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
    scale: "hundred_million_jpy",
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
  const scale: MoneyUnit = isMoneyUnit(values.unit) ? values.unit : "jpy";
  const extra = Object.fromEntries(
    Object.entries(raw.extraUnits ?? {}).filter(([, u]) => u !== ""),
  );
  const table = shapeTable(raw.rows, raw.fields, raw.attribution, {
    lang: ctx.lang,
    scale,
    ...(ctx.headers ? { headers: ctx.headers } : {}),
    ...(raw.omit ? { omit: raw.omit } : {}),
    extraUnits: extra,
  });
  if (!raw.rows.length) ctx.onProgress?.(0);
  return table;
}
