// Line charts over an imported table: prices (close, adj_close by date) and valuations (PER, PBR by year).

import { parseAddress, rangeAddress } from "../state/a1";
import { excelApiSupported } from "./requirements";
import { runExcel } from "./run";

export interface ChartRequest {
  tableName: string;
  title: string;
  /** column index (0-based, within the table) of the category axis. */
  xColumn: number;
  /** series: column index, legend name, and whether it is read on the secondary value axis. */
  series: { column: number; name: string; secondary?: boolean }[];
  /** the API lists newest first (prices, valuations): plot oldest on the left. */
  newestFirst: boolean;
  /**
   * Appended to a secondary series' legend name on hosts without ExcelApi 1.8 (no secondary axis),
   * e.g. "(main axis)" / "（主軸）".
   */
  mainAxisNote?: string;
}

/** Inserts a line chart to the right of the table; returns the chart's name. */
export async function insertChart(request: ChartRequest): Promise<string> {
  return runExcel(async (context) => {
    const table = context.workbook.tables.getItem(request.tableName);
    const body = table.getDataBodyRange();
    body.load("address,rowCount,columnCount");
    await context.sync();
    const ref = parseAddress(body.address);
    const sheet = context.workbook.worksheets.getItem(ref.sheet ?? "");
    const column = (i: number): Excel.Range =>
      sheet.getRange(rangeAddress(ref.row, ref.col + i, body.rowCount, 1));
    const first = request.series[0];
    if (!first) throw new Error("A chart needs at least one series");
    const chart = sheet.charts.add("Line", column(first.column), "Columns");
    chart.title.text = request.title;
    const s0 = chart.series.getItemAt(0);
    s0.name = first.name;
    s0.setXAxisValues(column(request.xColumn));
    for (const s of request.series.slice(1)) {
      const added = chart.series.add(s.name);
      added.setValues(column(s.column));
      added.setXAxisValues(column(request.xColumn));
      // ExcelApi 1.8 (above the manifest's 1.7): without it the series stays on the main axis,
      // and its legend says so rather than leave a flat line unexplained.
      if (s.secondary && excelApiSupported("1.8")) added.axisGroup = "Secondary";
      else if (s.secondary) added.name = `${s.name} ${request.mainAxisNote ?? ""}`.trim();
    }
    if (request.newestFirst) chart.axes.categoryAxis.reversePlotOrder = true;
    chart.legend.position = "Bottom";
    const left = rangeAddress(ref.row - 1, ref.col + body.columnCount + 1, 1, 1);
    chart.setPosition(left);
    chart.load("name");
    await context.sync();
    return chart.name;
  });
}
