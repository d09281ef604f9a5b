// The import pipeline: fetch every page, write the table in blocks, keep its definition for refresh.

import { NotFoundError } from "../../src/client";
import type { Lang } from "../i18n/language";
import type { WriteTableOptions, WrittenTable } from "../excel/write-table";
import {
  fetchDatasetTable,
  fetchScreeningTable,
  type DatasetId,
  type ParamValues,
} from "./datasets";
import type { ImportDefinition } from "./import-definition";
import { tableNameFor } from "./import-definition";
import { OPERATIONS } from "../../src/contract";
import { contractQuery } from "./contract-params";
import type { PaneClient } from "./pane-client";
import { attributionCaption, type TableData } from "./table-data";

export interface ImportProgress {
  phase: "fetch" | "write";
  rows: number;
  total?: number;
}

/** The Excel side of an import (taskpane/excel in the pane; fakes in tests). */
export interface ImportExcel {
  writeTable(table: TableData, options: WriteTableOptions): Promise<WrittenTable>;
  saveImportDefinition(def: ImportDefinition): Promise<void>;
  existingTableNames(): Promise<Set<string>>;
}

export interface ImportRequest {
  dataset: DatasetId;
  params: ParamValues;
  metrics?: Record<string, { label: string; unit: string | null }>;
  /** replace this existing table in place (Refresh imports). */
  replaceTable?: string;
  /** where to write instead of the active cell. */
  anchor?: { sheet: string; address: string };
  /** table name to use instead of the generated one (company sheet). */
  tableName?: string;
}

export interface ImportContext {
  client: PaneClient;
  excel: ImportExcel;
  lang: Lang;
  headers?: "keys" | "ja";
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  now?: () => Date;
}

/**
 * A table name not used yet: base, base_2, base_3…
 * @internal Tests check table naming directly.
 */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

async function fetchForImport(req: ImportRequest, ctx: ImportContext): Promise<TableData> {
  const fetchCtx = {
    client: ctx.client,
    lang: ctx.lang,
    ...(ctx.headers ? { headers: ctx.headers } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onProgress: (rows: number) => ctx.onProgress?.({ phase: "fetch", rows }),
  };
  if (req.dataset === "screening") {
    const metrics = new Map(Object.entries(req.metrics ?? {}));
    const names = OPERATIONS.getScreening.params.map((p) => p.name);
    return fetchScreeningTable(contractQuery("getScreening", req.params, names), metrics, fetchCtx);
  }
  return fetchDatasetTable(req.dataset, req.params, fetchCtx);
}

/**
 * Runs one import end to end and records its definition (never the key) under the table's name.
 * @example await runImport({ dataset: "prices", params: { code: "7203" } }, ctx)
 */
export async function runImport(req: ImportRequest, ctx: ImportContext): Promise<WrittenTable> {
  const table = await fetchForImport(req, ctx);
  if (ctx.signal?.aborted) throw abortError();
  // openapi.json EmptyReason: an empty answer is not an error for the API, but an empty table helps
  // no one, and a refresh must not replace good data with nothing.
  if (table.rows.length === 0) throw new NotFoundError("no_results");
  const name =
    req.replaceTable ??
    req.tableName ??
    uniqueName(tableNameFor(req.dataset, req.params), await ctx.excel.existingTableNames());
  const total = table.rows.length;
  ctx.onProgress?.({ phase: "write", rows: 0, total });
  const written = await ctx.excel.writeTable(table, {
    name,
    caption: attributionCaption(table, ctx.lang),
    ...(req.replaceTable ? { replace: true } : {}),
    ...(req.anchor ? { anchor: req.anchor } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onProgress: (rows) => ctx.onProgress?.({ phase: "write", rows, total }),
  });
  const def: ImportDefinition = {
    v: 1,
    dataset: req.dataset,
    params: req.params,
    lang: ctx.lang,
    ...(ctx.headers ? { headers: ctx.headers } : {}),
    tableName: written.name,
    createdAt: (ctx.now?.() ?? new Date()).toISOString(),
    ...(req.metrics ? { metrics: req.metrics } : {}),
  };
  await ctx.excel.saveImportDefinition(def);
  return written;
}

/**
 * Refresh imports: re-runs a stored definition in place, with the language and header cells it was
 * made with, so the refreshed table keeps its column names (formulas that refer to them keep working).
 * @example await rerunImport(def, { client, excel, lang: "ja" })
 */
export function rerunImport(
  def: ImportDefinition,
  ctx: Omit<ImportContext, "headers">,
): Promise<WrittenTable> {
  return runImport(
    {
      dataset: def.dataset,
      params: def.params,
      replaceTable: def.tableName,
      ...(def.metrics ? { metrics: def.metrics } : {}),
    },
    {
      ...ctx,
      lang: def.lang ?? ctx.lang,
      ...(def.headers ? { headers: def.headers } : {}),
    },
  );
}

function abortError(): Error {
  const e = new Error("Import cancelled");
  e.name = "AbortError";
  return e;
}
