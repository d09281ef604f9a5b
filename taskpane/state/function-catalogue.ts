// The formula builder's catalogue: functions.json / functions-ja.json (generated from the functions'
// JSDoc) for names, parameters and descriptions, plus what kind of field each parameter needs.

import { FIELD_DICTIONARY } from "../../src/contract/fields.generated";
import { TSE33_INDUSTRIES } from "../../src/contract/tse-industries";
import { kaishaFormula, numericOrText, type FormulaArg } from "./formula-text";

/** The parts of a functions.json entry the builder reads. */
export interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  parameters: { name: string; description?: string; optional?: boolean }[];
}

/** How a parameter is entered. */
type ParamKind =
  | { type: "company"; edinet: boolean }
  | { type: "item"; dataset: "financials" }
  /** A list of accepted values; `freeform` also takes typed text (e.g. a fiscal month). */
  | { type: "choice"; options: readonly string[]; numeric?: boolean; freeform?: boolean }
  | { type: "number" }
  | { type: "text" };

export interface BuilderParam {
  name: string;
  optional: boolean;
  description: { ja: string; en: string };
  kind: ParamKind;
}

export interface BuilderFunction {
  name: string;
  description: { ja: string; en: string };
  params: BuilderParam[];
}

const MONEY = ["jpy", "thousand_jpy", "million_jpy", "hundred_million_jpy"] as const;
const HEADERS: ParamKind = { type: "choice", options: ["0", "1", "2"], numeric: true };
const choice = (...options: string[]): ParamKind => ({ type: "choice", options });

/**
 * Accepted values per `FUNCTION.parameter`, then per parameter name; each list is what the
 * function's argument parsing accepts (test/taskpane/function-catalogue.test.ts checks that every
 * value is named in the function's own JSDoc description).
 */
const BY_FUNCTION: Record<string, ParamKind> = {
  "FINANCIAL.item": { type: "item", dataset: "financials" },
  "FINANCIAL.period": choice("annual", "quarterly", "semiannual", "LTM"),
  "FINANCIALS.period": choice("annual", "quarterly", "semiannual"),
  "SEGMENTS.period": choice("annual", "quarter"),
  "MARGIN.period": choice("26w", "52w"),
  "JSFMARGIN.period": choice("1m", "3m", "6m", "1y"),
  "PRICE.field": choice("close", "open", "high", "low", "adj_close", "volume", "date"),
  "SECURITIES.industry": { type: "choice", options: TSE33_INDUSTRIES.map((i) => i.ja) },
  // The datasets FIELDS describes are the field dictionary's (src/contract), in its order.
  "FIELDS.dataset": choice(...Object.keys(FIELD_DICTIONARY)),
  "ATTRIBUTION.dataset": choice(
    "financials",
    "valuations",
    "prices",
    "segments",
    "dividends",
    "screening",
    "securities",
    "rankings",
    "peers",
    "disclosures",
    "officers",
    "company",
    "margin",
    "jsf",
  ),
};

const BY_NAME: Record<string, ParamKind> = {
  company: { type: "company", edinet: true },
  security_code: { type: "company", edinet: false },
  // Relative periods as a list; a fiscal month ("2024/03") or year may be typed instead.
  fiscal_period: {
    type: "choice",
    options: ["0", "-1", "-2", "-3", "-4"],
    numeric: true,
    freeform: true,
  },
  quarter: choice("Q1", "Q2", "Q3", "Q4", "H1", "full_year"),
  unit: choice(...MONEY),
  layout: choice("items_down", "periods_down"),
  headers: HEADERS,
  order: choice("desc", "asc"),
  sort_order: choice("desc", "asc"),
  metric: choice("gainers", "losers", "volume", "stop-high", "stop-low"),
  market: choice("Prime", "Standard", "Growth"),
  part: choice("meta", "sections", "xbrl", "available_sections"),
  exchange: choice("XTKS", "XNGO", "XFKA", "XSAP"),
  table: choice("days", "reverse", "other_exchange_reverse"),
  years: { type: "number" },
  limit: { type: "number" },
  fiscal_year: { type: "number" },
  from_fiscal_year: { type: "number" },
  to_fiscal_year: { type: "number" },
};

function paramKind(fn: string, param: string): ParamKind {
  return BY_FUNCTION[`${fn}.${param}`] ?? BY_NAME[param] ?? { type: "text" };
}

/** functions.json + functions-ja.json -> the builder's catalogue, in functions.json order. */
export function builderCatalogue(
  en: readonly FunctionMetadata[],
  ja: readonly FunctionMetadata[],
): BuilderFunction[] {
  return en.map((f) => {
    const jaFn = ja.find((x) => x.id === f.id);
    return {
      name: f.name,
      description: { en: f.description ?? "", ja: jaFn?.description ?? f.description ?? "" },
      // functions-ja.json lists the same parameters in the same order under Japanese names
      // (scripts/functions-ja.js), so they are matched by position, not by name.
      params: f.parameters.map((p, i) => ({
        name: p.name,
        optional: p.optional === true,
        description: {
          en: p.description ?? "",
          ja: jaFn?.parameters[i]?.description ?? p.description ?? "",
        },
        kind: paramKind(f.name, p.name),
      })),
    };
  });
}

type FetchLike = (url: string) => Promise<{ ok: boolean; json(): Promise<unknown> }>;

async function functionsOf(fetchFn: FetchLike, file: string): Promise<FunctionMetadata[]> {
  const res = await fetchFn(file);
  if (!res.ok) throw new Error(`${file}: not available`);
  const body = (await res.json()) as { functions?: unknown };
  if (!Array.isArray(body.functions)) throw new Error(`${file}: no functions`);
  return body.functions as FunctionMetadata[];
}

/**
 * Reads the metadata files served next to the task pane page (the manifest points Excel at the
 * same files); a missing Japanese file leaves English descriptions.
 */
export async function loadBuilderCatalogue(fetchFn: FetchLike): Promise<BuilderFunction[]> {
  const en = await functionsOf(fetchFn, "functions.json");
  const ja = await functionsOf(fetchFn, "functions-ja.json").catch(() => en);
  return builderCatalogue(en, ja);
}

/**
 * The arguments as Excel would pass them: numbers where the parameter is numeric, text otherwise,
 * undefined for empty; an input starting with "=" is a cell reference or expression (`{ref}`).
 */
export function builderArgs(
  fn: BuilderFunction,
  values: Readonly<Record<string, string>>,
): FormulaArg[] {
  return fn.params.map((p) => {
    const raw = (values[p.name] ?? "").trim();
    if (raw === "") return undefined;
    const ref = raw.startsWith("=") ? raw.slice(1).trim() : "";
    if (ref !== "") return { ref };
    const numeric =
      p.kind.type === "number" || (p.kind.type === "choice" && p.kind.numeric === true);
    return numeric ? numericOrText(raw) : raw;
  });
}

/**
 * The formula for the builder's inputs.
 * @example builderFormula(FINANCIAL, { company: "7203", item: "sales", fiscal_period: "-1" })
 * // '=KAISHA.FINANCIAL("7203","sales",-1)'
 */
export function builderFormula(
  fn: BuilderFunction,
  values: Readonly<Record<string, string>>,
): string {
  return kaishaFormula(fn.name, builderArgs(fn, values));
}

/** Required parameters still empty. */
export function missingArgs(
  fn: BuilderFunction,
  values: Readonly<Record<string, string>>,
): string[] {
  return fn.params
    .filter((p) => !p.optional && (values[p.name] ?? "").trim() === "")
    .map((p) => p.name);
}

/** Values a user can start from: a sample company and item, the first choice of required lists. */
export function exampleValues(fn: BuilderFunction): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of fn.params) {
    if (p.optional) continue;
    const k = p.kind;
    if (k.type === "company") out[p.name] = "7203";
    else if (k.type === "item") out[p.name] = "sales";
    else if (k.type === "choice") out[p.name] = k.options[0] ?? "";
  }
  return out;
}
