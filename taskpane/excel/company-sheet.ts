// Writes a sheet template (company or comps sheet) from a plan: only the template's own cells, so
// rebuilding keeps every cell the analyst added; its chart replaced by name.

import { cellAddress, parseAddress } from "../state/a1";
import { AddinFormula } from "./addin-formula";
import { recordRows, recordSheet, type RecordSheetSpec } from "./record-sheet";
import { runExcel } from "./run";
import { writeCells } from "./safe-values";

export interface SheetCell {
  /** one cell ("B2"), or a block ("AK12:AK251") that gets `numberFormat` only. */
  address: string;
  /** text (always written as text, whatever it starts with: labels, codes, the stamp) or a number. */
  value?: string | number;
  /**
   * a formula the plan built (KAISHA functions and plain Excel formulas over the sheet): written
   * only if AddinFormula.sheet accepts it (formula-check.ts BUILDER_POLICY).
   */
  formula?: string;
  numberFormat?: string;
  bold?: boolean;
  /** "—" for an item that does not exist sits right-aligned where the numbers are. */
  alignRight?: boolean;
  /**
   * Written on a rebuild only where the cell is empty or still holds what the previous build wrote
   * there: a company name the analyst typed over the template's name formula stays theirs.
   */
  keepEdits?: boolean;
}

/** A line chart over two columns of the sheet (the split-adjusted close by date). */
interface SheetChart {
  /** the chart's name: a rebuild replaces the chart of this name and no other. */
  name: string;
  title: string;
  /**
   * a reference the title shows instead (`='Kaisha_7203'!$AK$8`, ChartTitle.setFormula): the title
   * follows what that cell says (the company in the code cell).
   */
  titleFormula?: string;
  seriesName: string;
  /** category (date) and value cells, e.g. "AK12:AK251" and "AL12:AL251". */
  x: string;
  y: string;
  /** the values are newest first: plot oldest on the left. */
  newestFirst: boolean;
  /** top-left and bottom-right cells the chart covers. */
  from: string;
  to: string;
}

/**
 * Where an earlier build of the template may have left cells this one does not write (fewer
 * years, fewer rows): such a cell is cleared only while it still holds exactly what the template
 * wrote there (`owned`), so a cell the analyst typed or edited is never touched.
 */
interface SheetLeftovers {
  /** the block to look at, e.g. "C10:AF32". */
  block: string;
  /** whether `content` (a formula or a value as text) at `address` is the template's own. */
  owned(address: string, content: string): boolean;
}

export interface CompanySheetPlan {
  sheetName: string;
  cells: SheetCell[];
  leftovers?: SheetLeftovers;
  /** column widths by letter, in points. */
  widths?: Record<string, number>;
  chart?: SheetChart;
}

/** What a build did: the sheet's name, and whether it existed (a rebuild kept the analyst's cells). */
export interface SheetBuild {
  sheet: string;
  rebuilt: boolean;
}

/**
 * What each build wrote, per sheet and cell (hidden, like the add-in's other record sheets): a
 * rebuild clears exactly the cells the previous build wrote and this one does not, while they still
 * hold what was written, however many rows the analyst added in between. Never an API key: only
 * the plan's labels, codes and formulas.
 */
const BUILDS: RecordSheetSpec = {
  name: "KaishaSheetBuilds",
  header: ["sheet", "address", "content"],
  hidden: true,
};

/** A cell's content as Range.formulas gives it, as text ("" for an empty cell). */
function contentText(content: unknown): string {
  return typeof content === "string" || typeof content === "number" || typeof content === "boolean"
    ? String(content)
    : "";
}

/** What a plan cell puts into its cell, as Range.formulas reads it back ("" for a format only). */
function writtenText(cell: SheetCell): string {
  if (cell.formula !== undefined) return cell.formula;
  return cell.value === undefined ? "" : String(cell.value);
}

/** The record rows of one sheet: address -> content written; undefined when none was kept. */
async function previousBuild(
  context: Excel.RequestContext,
  sheetName: string,
): Promise<Map<string, string> | undefined> {
  const records = await recordSheet(context, BUILDS, false);
  if (!records) return undefined;
  const rows = await recordRows(records, context);
  const mine = rows.slice(1).filter((r) => r[0] === sheetName);
  if (mine.length === 0) return undefined;
  return new Map(mine.map((r) => [contentText(r[1]), contentText(r[2])]));
}

/** Replaces the sheet's rows of the build record with what this build wrote. */
async function recordBuild(
  context: Excel.RequestContext,
  sheetName: string,
  written: ReadonlyMap<string, string>,
): Promise<void> {
  const records = await recordSheet(context, BUILDS, true);
  if (!records) return;
  const rows = await recordRows(records, context);
  const others = rows.slice(1).filter((r) => r[0] !== sheetName && r[0] !== "");
  const next: string[][] = [
    [...BUILDS.header],
    ...others.map((r) => [contentText(r[0]), contentText(r[1]), contentText(r[2])]),
    ...[...written].map(([address, content]) => [sheetName, address, content]),
  ];
  const used = records.getUsedRangeOrNullObject();
  used.load("address");
  await context.sync();
  if (!used.isNullObject) used.clear("Contents");
  // Every record cell is text (safe-values.ts): a recorded formula is never a formula here.
  writeCells(records.getRange(`A1:C${next.length}`), next);
}

/** The contents of the sheet's used range by address (what a rebuild compares with the record). */
async function sheetContents(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
): Promise<Map<string, string>> {
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load("address,formulas");
  await context.sync();
  const found = new Map<string, string>();
  if (used.isNullObject) return found;
  const origin = parseAddress(used.address);
  used.formulas.forEach((row: unknown[], r: number) =>
    row.forEach((content, c) => {
      const text = contentText(content);
      if (text !== "") found.set(cellAddress(origin.row + r, origin.col + c), text);
    }),
  );
  return found;
}

/** Rows x columns of an A1 block ("AK12:AK251" -> [240, 1]). */
function blockSize(address: string): [number, number] {
  const ref = parseAddress(address);
  const [, to = address] = address.split(":");
  const end = parseAddress(to);
  return [end.row - ref.row + 1, end.col - ref.col + 1];
}

/** Clears the earlier build's cells this plan no longer writes, while they are still the template's. */
async function clearLeftovers(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  plan: CompanySheetPlan,
): Promise<void> {
  const leftovers = plan.leftovers;
  if (!leftovers) return;
  const block = sheet.getRange(leftovers.block);
  block.load("formulas");
  await context.sync();
  const origin = parseAddress(leftovers.block);
  const written = new Set(plan.cells.map((c) => c.address));
  block.formulas.forEach((row: unknown[], r: number) =>
    row.forEach((content, c) => {
      const address = cellAddress(origin.row + r, origin.col + c);
      const text =
        typeof content === "string" || typeof content === "number" ? String(content) : "";
      if (text !== "" && !written.has(address) && leftovers.owned(address, text))
        sheet.getRange(address).clear("Contents");
    }),
  );
}

/**
 * Clears what the previous build wrote (its record) and this plan does not, where the cell still
 * holds exactly that: the old caption, median or source lines of a comps sheet that grew go; a cell
 * the analyst typed over stays.
 */
function clearPreviousBuild(
  sheet: Excel.Worksheet,
  plan: CompanySheetPlan,
  previous: ReadonlyMap<string, string>,
  current: ReadonlyMap<string, string>,
): void {
  const written = new Set(plan.cells.filter((c) => !c.keepEdits).map((c) => c.address));
  for (const [address, content] of previous) {
    if (content === "" || written.has(address)) continue;
    if (current.get(address) === content) sheet.getRange(address).clear("Contents");
  }
}

/**
 * The number format a single cell gets: its own, else that of a block of the plan covering it (a
 * formula written after its block's format would otherwise reset it to General: the newest date of
 * a spill shown as a serial).
 */
function formatOf(cell: SheetCell, blocks: readonly SheetCell[]): string | undefined {
  if (cell.numberFormat !== undefined) return cell.numberFormat;
  const at = parseAddress(cell.address);
  for (const b of blocks) {
    const from = parseAddress(b.address);
    const [rows, cols] = blockSize(b.address);
    if (
      at.row >= from.row &&
      at.row < from.row + rows &&
      at.col >= from.col &&
      at.col < from.col + cols
    )
      return b.numberFormat;
  }
  return undefined;
}

/**
 * Creates the sheet, or on a rebuild writes over the template's own cells only: whatever the
 * analyst typed elsewhere on it (notes, forecasts, their own formulas) stays, and what the previous
 * build wrote that this one does not is cleared while untouched (KaishaSheetBuilds). The chart of
 * the plan's name is replaced; other charts and tables are left alone. Activates the sheet.
 */
export async function buildCompanySheet(plan: CompanySheetPlan): Promise<SheetBuild> {
  return runExcel(async (context) => {
    let sheet = context.workbook.worksheets.getItemOrNullObject(plan.sheetName);
    await context.sync();
    const rebuilt = !sheet.isNullObject;
    const previous = rebuilt ? await previousBuild(context, plan.sheetName) : undefined;
    let current = new Map<string, string>();
    if (!rebuilt) sheet = context.workbook.worksheets.add(plan.sheetName);
    else {
      current = await sheetContents(context, sheet);
      // A sheet built before builds were recorded: the template's own leftovers by their shape.
      if (previous) clearPreviousBuild(sheet, plan, previous, current);
      else await clearLeftovers(context, sheet, plan);
    }
    const blocks = plan.cells.filter((c) => c.address.includes(":") && c.numberFormat);
    const written = new Map<string, string>();
    for (const cell of plan.cells) {
      const range = sheet.getRange(cell.address);
      if (cell.address.includes(":")) {
        const [rows, cols] = blockSize(cell.address);
        if (cell.numberFormat)
          range.numberFormat = Array.from({ length: rows }, () =>
            Array.from({ length: cols }, () => cell.numberFormat),
          );
        continue;
      }
      if (cell.keepEdits && rebuilt) {
        const now = current.get(cell.address) ?? "";
        if (now !== "" && now !== previous?.get(cell.address)) continue;
      }
      // Through safe-values.ts: a plan's text (a code typed by the user, the API's source label) is
      // text; a formula is written only when it is the builders' kind (AddinFormula.sheet throws).
      const content = cell.formula !== undefined ? AddinFormula.sheet(cell.formula) : cell.value;
      const format = formatOf(cell, blocks);
      if (content !== undefined || format) writeCells(range, [[content]], [[format]]);
      if (cell.bold) range.format.font.bold = true;
      if (cell.alignRight) range.format.horizontalAlignment = "Right";
      const text = writtenText(cell);
      if (text !== "") written.set(cell.address, text);
    }
    await recordBuild(context, plan.sheetName, written);
    for (const [col, width] of Object.entries(plan.widths ?? {})) {
      sheet.getRange(`${col}:${col}`).format.columnWidth = width;
    }
    if (plan.chart) {
      sheet.charts.load("items");
      await context.sync();
      for (const old of sheet.charts.items) if (old.name === plan.chart.name) old.delete();
      addChart(sheet, plan.chart);
    }
    sheet.activate();
    await context.sync();
    return { sheet: plan.sheetName, rebuilt };
  });
}

function addChart(sheet: Excel.Worksheet, spec: SheetChart): void {
  const chart = sheet.charts.add("Line", sheet.getRange(spec.y), "Columns");
  chart.name = spec.name;
  chart.title.text = spec.title;
  if (spec.titleFormula !== undefined) chart.title.setFormula(spec.titleFormula);
  const series = chart.series.getItemAt(0);
  series.name = spec.seriesName;
  series.setXAxisValues(sheet.getRange(spec.x));
  if (spec.newestFirst) chart.axes.categoryAxis.reversePlotOrder = true;
  chart.legend.position = "Bottom";
  chart.setPosition(spec.from, spec.to);
}

/**
 * The values of a block of a sheet, or undefined when there is no such sheet (a rebuild reads
 * back what the analyst may have added before writing the template).
 */
export async function readSheetValues(
  sheetName: string,
  address: string,
): Promise<unknown[][] | undefined> {
  return runExcel(async (context) => {
    const sheet = context.workbook.worksheets.getItemOrNullObject(sheetName);
    await context.sync();
    if (sheet.isNullObject) return undefined;
    const range = sheet.getRange(address);
    range.load("values");
    await context.sync();
    return range.values;
  });
}
