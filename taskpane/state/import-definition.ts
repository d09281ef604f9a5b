// The definition of a table import, stored with the table so "Refresh imports" can re-run it.
// It holds dataset and parameters only: never the API key (ARCHITECTURE: the key never enters the workbook).

import type { Lang } from "../i18n/language";
import { DATASET_PARAMS, type DatasetId, type ParamValues } from "./datasets";

export interface ImportDefinition {
  v: 1;
  dataset: DatasetId;
  /** dataset parameters, or the /screening query for a screening import. */
  params: ParamValues;
  /** metric labels/units of a screening import, so the refresh needs no /screening/fields call. */
  metrics?: Record<string, { label: string; unit: string | null }>;
  lang: Lang;
  /** header cells of the table (kept so a refresh writes the same headers). */
  headers?: "keys" | "ja";
  tableName: string;
  createdAt: string;
}

const SECRET_LIKE = /key_|authorization|bearer|api_?key/i;

/** JSON for the hidden sheet; refuses anything that looks like a credential. */
export function serializeDefinition(def: ImportDefinition): string {
  const json = JSON.stringify(def);
  for (const [k, v] of Object.entries(def.params)) {
    if (SECRET_LIKE.test(k) || SECRET_LIKE.test(v)) {
      throw new Error(`Import parameter ${k} looks like a credential and is not stored`);
    }
  }
  return json;
}

/** Parses a stored definition; undefined when it is not one this version understands. */
export function parseDefinition(text: unknown): ImportDefinition | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  try {
    const obj = JSON.parse(text) as Partial<ImportDefinition> | null;
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return undefined;
    if (obj.v !== 1 || typeof obj.dataset !== "string" || typeof obj.tableName !== "string") {
      return undefined;
    }
    // A row edited by hand or of another shape is no definition: a refresh would read a dataset
    // table by its name and send its params (own entries only: src/excel/own-key.ts).
    if (!Object.hasOwn(DATASET_PARAMS, obj.dataset) || !textRecord(obj.params)) return undefined;
    if (obj.metrics !== undefined && !metricsRecord(obj.metrics)) return undefined;
    const { lang, headers, ...rest } = obj;
    return {
      ...(rest as ImportDefinition),
      // Optional words of another value fall back to the pane's, as a definition without them.
      ...(lang === "en" || lang === "ja" ? { lang } : {}),
      ...(headers === "keys" || headers === "ja" ? { headers } : {}),
    };
  } catch {
    return undefined;
  }
}

/** A plain object of text values (an import's parameters). */
function textRecord(value: unknown): value is Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((v) => typeof v === "string");
}

/** A screening import's metric labels and units, each `{ label: text, unit: text | null }`. */
function metricsRecord(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(
    (m: unknown) =>
      typeof m === "object" &&
      m !== null &&
      typeof (m as { label?: unknown }).label === "string" &&
      ((m as { unit?: unknown }).unit === null ||
        typeof (m as { unit?: unknown }).unit === "string"),
  );
}

/**
 * An Excel table name for an import: letters, digits and underscores, starting with a letter.
 * @example tableNameFor("financials", { security_code: "7203" }) // "Kaisha_financials_7203"
 */
export function tableNameFor(dataset: DatasetId, params: ParamValues): string {
  const id = params.code ?? params.security_code ?? params.metric ?? params.q ?? "";
  const clean = `${id}`.replace(/[^A-Za-z0-9]/g, "");
  return clean === "" ? `Kaisha_${dataset}` : `Kaisha_${dataset}_${clean}`;
}
