// Writes a sheet template (company or comps sheet) from a plan: only the template's own cells, so
// rebuilding keeps every cell the analyst added; its chart replaced by name.

import { cellAddress, parseAddress } from "../state/a1";
import { AddinFormula } from "./addin-formula";
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
}

/** A line chart over two columns of the sheet (the split-adjusted close by date). */
interface SheetChart {
  /** the chart's name: a rebuild replaces the chart of this name and no other. */
  name: string;
  title: string;
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
 * Creates the sheet, or on a rebuild writes over the template's own cells only: whatever the
 * analyst typed elsewhere on it (notes, forecasts, their own formulas) stays. The chart of the
 * plan's name is replaced; other charts and tables are left alone. Activates the sheet.
 */
export async function buildCompanySheet(plan: CompanySheetPlan): Promise<SheetBuild> {
  return runExcel(async (context) => {
    let sheet = context.workbook.worksheets.getItemOrNullObject(plan.sheetName);
    await context.sync();
    const rebuilt = !sheet.isNullObject;
    if (!rebuilt) sheet = context.workbook.worksheets.add(plan.sheetName);
    else await clearLeftovers(context, sheet, plan);
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
      // Through safe-values.ts: a plan's text (a code typed by the user, the API's source label) is
      // text; a formula is written only when it is the builders' kind (AddinFormula.sheet throws).
      const content = cell.formula !== undefined ? AddinFormula.sheet(cell.formula) : cell.value;
      if (content !== undefined || cell.numberFormat)
        writeCells(range, [[content]], [[cell.numberFormat]]);
      if (cell.bold) range.format.font.bold = true;
      if (cell.alignRight) range.format.horizontalAlignment = "Right";
    }
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
