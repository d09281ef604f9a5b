// taskpane/excel/chart: chart series from table columns (the sheet templates: company-sheet-plan.test.ts).

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { closeWorkbook, openWorkbook } from "./standin-workbook";
import { insertChart } from "../../taskpane/excel/chart";
import { chartRequest } from "../../taskpane/chart-plan";
import { translator } from "../../taskpane/i18n/messages";

afterEach(closeWorkbook);

test("insertChart(prices): a line of the split-adjusted close by date, oldest on the left, beside the table", async () => {
  const excel = await openWorkbook({
    sheets: [{ name: "Data" }],
    tables: [{ name: "Kaisha_prices_7203", address: "Data!B2:H101" }],
  });
  const columns = ["date", "open", "high", "low", "close", "adj_close", "volume"].map((key) => ({
    key,
    header: key,
  }));
  const request = chartRequest("prices", "Kaisha_prices_7203", columns, "7203", translator("ja"));
  expect(request).toBeDefined();
  await insertChart(request!);
  const charts = excel.charts("Data");
  expect(charts).toHaveLength(1);
  const chart = charts[0]!;
  expect(chart.type).toBe("Line");
  // The split-adjusted close alone: the unadjusted close would drop at every split.
  expect(chart.source).toBe("Data!G3:G101"); // adj_close
  expect(chart.title).toBe("7203 株価（分割調整後終値）");
  expect(chart.series).toEqual([{ name: "adj_close", values: "Data!G3:G101", x: "Data!B3:B101" }]);
  expect(chart.reversed).toBe(true);
  expect(chart.position).toBe("J2");
});

/** A host with ExcelApi up to 1.`minor` (Office.context.requirements). */
function hostWithExcelApi(minor: number): void {
  (globalThis as { Office?: unknown }).Office = {
    context: {
      requirements: {
        isSetSupported: (name: string, v: string) =>
          name === "ExcelApi" && Number(v.split(".")[1]) <= minor,
      },
    },
  };
}
afterEach(() => delete (globalThis as { Office?: unknown }).Office);

function valuationsTable() {
  return openWorkbook({
    sheets: [{ name: "Data" }],
    tables: [{ name: "Kaisha_valuations_7203", address: "Data!A1:D21" }],
  });
}

test("insertChart(valuations) without ExcelApi 1.8: PBR stays on the main axis and its legend says so", async () => {
  hostWithExcelApi(7);
  const excel = await valuationsTable();
  const columns = ["fiscal_year", "per", "pbr_adjusted"].map((key) => ({ key, header: key }));
  const t = translator("en");
  await insertChart(chartRequest("valuations", "Kaisha_valuations_7203", columns, "7203", t)!);
  const chart = excel.charts("Data")[0]!;
  expect(chart.series[1]?.axisGroup).toBeUndefined();
  expect(chart.series[1]?.name).toBe("pbr_adjusted (main axis: this Excel has no secondary axis)");
});

test("insertChart(valuations): PER on the main axis, PBR on the secondary axis so it does not lie flat", async () => {
  hostWithExcelApi(8);
  const excel = await valuationsTable();
  const columns = ["fiscal_year", "per", "pbr_adjusted", "market_cap"].map((key) => ({
    key,
    header: key,
  }));
  const t = translator("ja");
  await insertChart(chartRequest("valuations", "Kaisha_valuations_7203", columns, "7203", t)!);
  const chart = excel.charts("Data")[0]!;
  expect(chart.source).toBe("Data!B2:B21"); // per
  expect(chart.series[0]?.name).toBe("per");
  expect(chart.series[1]).toMatchObject({ name: "pbr_adjusted", values: "Data!C2:C21" });
  expect(chart.series[0]?.axisGroup).toBeUndefined();
  expect(chart.series[1]?.axisGroup).toBe("Secondary");
});

test("chartRequest: datasets without a chart, or tables without the columns, give none", () => {
  const t = translator("en");
  expect(
    chartRequest("dividends", "T", [{ key: "fiscal_year", header: "" }], "7203", t),
  ).toBeUndefined();
  expect(
    chartRequest("valuations", "T", [{ key: "fiscal_year", header: "" }], "7203", t),
  ).toBeUndefined();
});
