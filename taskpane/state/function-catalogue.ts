// The formula builder's catalogue: functions.json / functions-ja.json (generated from the functions'
// JSDoc) for names, parameters, descriptions and custom-enum lists, plus what kind of field each
// other parameter needs, from the contract where the function passes the value to the API.

import { FIELD_DICTIONARY } from "../../src/contract/generated/fields";
import { TSE33_INDUSTRIES } from "../../src/contract/tse-industries";
import { SECTION_IDS } from "../../src/contract/disclosure-sections";
import { kaishaFormula, numericOrText, type FormulaArg } from "./formula-text";
import { paramEnum } from "./contract-params";
import { DOCUMENT_PARTS, JSF_TABLES } from "./function-lists";

/**
 * The parts of a functions.json entry the builder reads.
 * @internal The preview page's engine (a development build) and tests read functions.json with it.
 */
export interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  parameters: {
    name: string;
    description?: string;
    optional?: boolean;
    /** The parameter's `@customenum` list in functions.json `enums` (functions/index.ts). */
    customEnumId?: string;
  }[];
}

/**
 * A functions.json custom enum (custom-functions-metadata from a `@customenum` in functions/index.ts).
 * @internal Tests build their own metadata with it.
 */
export interface EnumMetadata {
  id: string;
  type: "string" | "number";
  values: { name: string; stringValue?: string; numberValue?: number }[];
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

const choice = (options: readonly string[]): ParamKind => ({ type: "choice", options });

/**
 * Lists of parameters that have no `@customenum` in functions.json, from the source the function's
 * own parsing reads (test/taskpane/builder-choices.test.ts calls each function with each value).
 * Parameters with a custom enum take its values (enumKind) and are not listed here.
 */
const BY_FUNCTION: Record<string, ParamKind> = {
  "FINANCIAL.item": { type: "item", dataset: "financials" },
  // functions/prices.ts PRICE: the contract's price fields, then "date".
  "PRICE.field": choice([...FIELD_DICTIONARY.prices.map((f) => f.key), "date"]),
  // Passed to the API as they are: the contract's own enums.
  "MARGIN.period": choice(paramEnum("getWeeklyMarginBalance", "period")),
  "JSFMARGIN.period": choice(paramEnum("getJsfMarginDaily", "period")),
  "JSFMARGIN.exchange": choice(paramEnum("getJsfMarginDaily", "exchange")),
  "JSFMARGIN.table": choice(JSF_TABLES),
  "SECURITIES.market": choice(paramEnum("listSecurities", "market")),
  "SECURITIES.industry": choice(TSE33_INDUSTRIES.map((i) => i.ja)),
  "SCREEN.sort_order": choice(paramEnum("getScreening", "sort_order")),
  "DOCUMENT.part": choice(DOCUMENT_PARTS),
  "SECTION.section": choice(SECTION_IDS),
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
  years: { type: "number" },
  limit: { type: "number" },
  fiscal_year: { type: "number" },
  from_fiscal_year: { type: "number" },
  to_fiscal_year: { type: "number" },
};

/** A custom enum's values as the builder's list; numbers (headers 0/1/2) stay numeric. */
function enumKind(e: EnumMetadata): ParamKind {
  const numeric = e.type === "number";
  const options = e.values.map((v) => String(numeric ? v.numberValue : v.stringValue));
  return numeric ? { type: "choice", options, numeric } : choice(options);
}

function paramKind(
  fn: string,
  param: FunctionMetadata["parameters"][number],
  enums: ReadonlyMap<string, EnumMetadata>,
): ParamKind {
  const e = param.customEnumId === undefined ? undefined : enums.get(param.customEnumId);
  if (e) return enumKind(e);
  return BY_FUNCTION[`${fn}.${param.name}`] ?? BY_NAME[param.name] ?? { type: "text" };
}

/**
 * functions.json + functions-ja.json -> the builder's catalogue, in functions.json order.
 * @internal Tests build the catalogue from their own metadata.
 */
export function builderCatalogue(
  en: readonly FunctionMetadata[],
  ja: readonly FunctionMetadata[],
  enums: readonly EnumMetadata[],
): BuilderFunction[] {
  const byId = new Map(enums.map((e) => [e.id, e]));
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
        kind: paramKind(f.name, p, byId),
      })),
    };
  });
}

type FetchLike = (url: string) => Promise<{ ok: boolean; json(): Promise<unknown> }>;

interface MetadataFile {
  functions: FunctionMetadata[];
  enums: EnumMetadata[];
}

async function metadataOf(fetchFn: FetchLike, file: string): Promise<MetadataFile> {
  const res = await fetchFn(file);
  if (!res.ok) throw new Error(`${file}: not available`);
  const body = (await res.json()) as { functions?: unknown; enums?: unknown };
  if (!Array.isArray(body.functions)) throw new Error(`${file}: no functions`);
  return {
    functions: body.functions as FunctionMetadata[],
    enums: Array.isArray(body.enums) ? (body.enums as EnumMetadata[]) : [],
  };
}

/**
 * Reads the metadata files served next to the task pane page (the manifest points Excel at the
 * same files); a missing Japanese file leaves English descriptions.
 */
export async function loadBuilderCatalogue(fetchFn: FetchLike): Promise<BuilderFunction[]> {
  const en = await metadataOf(fetchFn, "functions.json");
  const ja = await metadataOf(fetchFn, "functions-ja.json").catch(() => en);
  // The lists come from functions.json's enums, the ones Excel's AutoComplete offers.
  return builderCatalogue(en.functions, ja.functions, en.enums);
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

/**
 * The value a list parameter takes when left empty, as its functions.json description documents it
 * ("annual (default), quarterly …", "1 header row (default)"): the builder shows it in the user's
 * language instead of the description's API words. Undefined when the description names none.
 * @example choiceDefault(FINANCIAL.period) // "annual"
 */
export function choiceDefault(param: BuilderParam): string | undefined {
  if (param.kind.type !== "choice") return undefined;
  const text = param.description.en;
  return param.kind.options.find((o) => {
    const escaped = o.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
    // The value, then words of its own up to a parenthesis that says it is the default.
    return new RegExp(`(^|[\\s,:])${escaped}(\\s[^,()]*)?\\s\\((?:[^)]*\\s)?default\\b`).test(text);
  });
}
