// Screening form state as plain data: conditions, unit choices, the /screening query and the SCREEN formula.

import { isPercentage, percentPoints } from "../../src/excel/percent-scale";
import { kaishaFormula, type FormulaArg } from "./formula-text";
import type { QueryParams } from "../../src/contract";
import { arrayProp } from "./pane-client";
import { limitOf } from "./contract-params";

/** openapi.json ScreeningField (unknown extra fields tolerated). */
export interface ScreeningFieldInfo {
  key: string;
  label: string;
  unit: string | null;
  type: string;
  note?: string;
}

/**
 * The /screening/fields body as field infos; entries missing key, label or type are skipped, and the
 * optional scale note is kept (openapi.json ScreeningField: a ratio metric's 1.0 = 100% is said
 * there).
 */
export function parseScreeningFields(body: unknown): ScreeningFieldInfo[] {
  return arrayProp(body, "fields").flatMap((f) =>
    typeof f.key === "string" && typeof f.label === "string" && typeof f.type === "string"
      ? [
          {
            key: f.key,
            label: f.label,
            unit: typeof f.unit === "string" ? f.unit : null,
            type: f.type,
            ...(typeof f.note === "string" && f.note.trim() !== "" ? { note: f.note } : {}),
          },
        ]
      : [],
  );
}

export type Operator = "gte" | "lte" | "gt" | "lt" | "eq";
export const OPERATORS: readonly Operator[] = ["gte", "lte", "gt", "lt", "eq"];

interface Condition {
  field: string;
  op: Operator;
  value: number;
  /** threshold unit; equal to the field's own unit when no conversion is wanted. */
  unit: string;
}

export interface ScreeningFormState {
  conditions: Condition[];
  name: string;
  sectors: string[];
  industries: string[];
  sortBy: string;
  /** openapi.json getScreening sort_order. */
  sortOrder: NonNullable<QueryParams<"getScreening">["sort_order"]>;
  asOf: string;
  limit: number;
}

/**
 * openapi.json getScreening: conditions + sector + industry, at most 20 (tier-dependent below
 * that).
 */
export const CONDITION_CAP = 20;

export function emptyScreeningForm(): ScreeningFormState {
  return {
    conditions: [],
    name: "",
    sectors: [],
    industries: [],
    sortBy: "",
    sortOrder: "desc",
    asOf: "",
    // The API's own default page (openapi.json getScreening limit).
    limit: limitOf("getScreening").default,
  };
}

const MONEY_UNITS = ["jpy", "million_jpy", "hundred_million_jpy"];
const RATIO_UNITS = ["ratio", "percent"];

/**
 * openapi.json getScreening: conversion only within money (jpy, million_jpy, hundred_million_jpy)
 * and ratio (ratio, percent); any other unit accepts only itself.
 */
export function unitChoices(fieldUnit: string | null): string[] {
  if (fieldUnit === null) return [];
  if (MONEY_UNITS.includes(fieldUnit)) return [...MONEY_UNITS];
  if (RATIO_UNITS.includes(fieldUnit)) return [...RATIO_UNITS];
  return [fieldUnit];
}

/**
 * The unit an analyst most likely types in: 億円 for money, percent for ratios (openapi.json
 * getScreening exempts an explicitly converting unit from the old-unit guard), else the field's own
 * unit.
 */
export function defaultUnit(fieldUnit: string | null): string {
  if (fieldUnit === null) return "";
  if (MONEY_UNITS.includes(fieldUnit)) return "hundred_million_jpy";
  if (fieldUnit === "ratio") return "percent";
  return fieldUnit;
}

/**
 * Numeric metrics only (openapi.json ScreeningField: enum fields are for sector/industry
 * parameters).
 */
export function numericFields(fields: readonly ScreeningFieldInfo[]): ScreeningFieldInfo[] {
  return fields.filter((f) => f.type === "numeric");
}

/** openapi.json getScreening. */
export function conditionCount(form: ScreeningFormState): number {
  return (
    form.conditions.length +
    (form.sectors.length > 0 ? 1 : 0) +
    (form.industries.length > 0 ? 1 : 0)
  );
}

function fieldUnitOf(fields: readonly ScreeningFieldInfo[], key: string): string | null {
  return fields.find((f) => f.key === key)?.unit ?? null;
}

/**
 * One condition as `field:op:value[:unit]`; the unit is omitted when it is the field's own, except
 * on a percentage metric: there the unit is always written, so the API and SCREEN read the same
 * threshold (SCREEN reads a unit-less percentage threshold as a fraction, 0.1 = 10%, like its
 * cells: src/excel/screen-thresholds.ts; the API reads it in the field's own unit).
 */
function conditionText(c: Condition, fields: readonly ScreeningFieldInfo[]): string {
  const own = fieldUnitOf(fields, c.field);
  const base = `${c.field}:${c.op}:${String(c.value)}`;
  if (isPercentage(own) && c.unit !== "") return `${base}:${c.unit}`;
  return c.unit === "" || c.unit === own ? base : `${base}:${c.unit}`;
}

function filtersText(form: ScreeningFormState, fields: readonly ScreeningFieldInfo[]): string {
  return form.conditions.map((c) => conditionText(c, fields)).join(",");
}

/** The /screening query (openapi.json getScreening), without cursor. Empty parts are left out. */
export function screeningQuery(
  form: ScreeningFormState,
  fields: readonly ScreeningFieldInfo[],
): QueryParams<"getScreening"> {
  const q: QueryParams<"getScreening"> = {};
  const filters = filtersText(form, fields);
  if (filters !== "") q.filters = filters;
  if (form.name.trim() !== "") q.name = form.name.trim();
  if (form.sortBy !== "") {
    q.sort_by = form.sortBy;
    q.sort_order = form.sortOrder;
  }
  if (form.sectors.length > 0) q.sector = form.sectors.join(",");
  if (form.industries.length > 0) q.industry = form.industries.join(",");
  if (form.asOf.trim() !== "") q.as_of = form.asOf.trim();
  q.limit = form.limit;
  return q;
}

/** SCREEN pages through for at most this many rows (functions/screen.ts MAX_ROWS). */
const SCREEN_MAX_ROWS = 1000;

/**
 * The SCREEN `limit` (rows it returns, not a page size): every match the preview counted, like
 * "Import as table" brings in, and never fewer than the form's row count; capped at SCREEN's maximum.
 */
function screenRows(form: ScreeningFormState, matchCount?: number): number {
  const wanted = matchCount === undefined ? form.limit : Math.max(form.limit, matchCount);
  return Math.max(1, Math.min(SCREEN_MAX_ROWS, Math.trunc(wanted)));
}

/**
 * `=KAISHA.SCREEN(filters, sort_by, sort_order, sector, industry, as_of, limit, name)` (the
 * argument order of functions/index.ts) with the same criteria as the form. `matchCount` is the
 * preview's total_count for these criteria, when known, so the formula lists the same companies
 * an import would.
 */
export function screenFormula(
  form: ScreeningFormState,
  fields: readonly ScreeningFieldInfo[],
  matchCount?: number,
): string {
  const q = screeningQuery(form, fields);
  const text = (v: string | number | undefined): FormulaArg =>
    v === undefined ? undefined : String(v);
  return kaishaFormula("SCREEN", [
    text(q.filters),
    text(q.sort_by),
    q.sort_by === undefined ? undefined : form.sortOrder,
    text(q.sector),
    text(q.industry),
    text(q.as_of),
    screenRows(form, matchCount),
    text(q.name),
  ]);
}

export interface ConditionDraft {
  field: string;
  op: Operator;
  value: string;
  unit: string;
}

/** The typed threshold, full-width digits from a Japanese IME made half width ("１５" → "15"). */
function draftValue(draft: ConditionDraft): string {
  return draft.value.normalize("NFKC").replace(/,/g, "").trim();
}

/** Why a draft cannot be added yet, or undefined when it can. */
export function draftProblem(
  draft: ConditionDraft,
  form: ScreeningFormState,
  fields: readonly ScreeningFieldInfo[],
): "no_metric" | "no_value" | "bad_unit" | "cap" | undefined {
  const field = numericFields(fields).find((f) => f.key === draft.field);
  if (!field) return "no_metric";
  const value = draftValue(draft);
  if (value === "" || !Number.isFinite(Number(value))) return "no_value";
  if (!unitChoices(field.unit).includes(draft.unit)) return "bad_unit";
  if (conditionCount(form) >= CONDITION_CAP) return "cap";
  return undefined;
}

export function addCondition(form: ScreeningFormState, draft: ConditionDraft): ScreeningFormState {
  const value = Number(draftValue(draft));
  return {
    ...form,
    conditions: [...form.conditions, { field: draft.field, op: draft.op, value, unit: draft.unit }],
  };
}

export function removeCondition(form: ScreeningFormState, index: number): ScreeningFormState {
  return { ...form, conditions: form.conditions.filter((_, i) => i !== index) };
}

/** Metric columns of the preview table: the conditions' metrics, then the sort metric; at most 3. */
export function previewMetrics(form: ScreeningFormState): string[] {
  const keys = [...form.conditions.map((c) => c.field), ...(form.sortBy ? [form.sortBy] : [])];
  return [...new Set(keys)].slice(0, 3);
}

/** The unit a preview cell is shown in: yen in 億円 (as the imports), percentages in percent. */
export function previewUnit(fieldUnit: string | null): string | null {
  if (fieldUnit === "jpy") return "hundred_million_jpy";
  if (isPercentage(fieldUnit)) return "percent";
  return fieldUnit;
}

/**
 * One preview cell (text in the pane, under a header with its unit): yen scaled to 億円 with
 * thousands separators, every percentage in percent points (a ratio 0.4567 and a percent 45.67
 * both "45.67": percent-scale.ts percentPoints), other values to two decimals.
 * @example previewNumber(3_512_000_000_000, "jpy") // "35,120"
 */
export function previewNumber(value: number | undefined, fieldUnit: string | null): string {
  if (value === undefined || !Number.isFinite(value)) return "";
  const shown = fieldUnit === "jpy" ? value / 100_000_000 : percentPoints(value, fieldUnit);
  const digits = fieldUnit === "jpy" || Math.abs(shown) >= 1000 ? 0 : 2;
  return shown.toLocaleString("en-US", {
    minimumFractionDigits: 0,
    maximumFractionDigits: digits,
  });
}
