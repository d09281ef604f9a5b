// taskpane/excel/chart and company-sheet: chart series from table columns; the company sheet's cells.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { installFakeExcel, uninstallFakeExcel } from "./fake-excel";
import { insertChart } from "../../taskpane/excel/chart";
import { buildCompanySheet } from "../../taskpane/excel/company-sheet";
import { companyFiscalYears, companySheetLayout } from "../../taskpane/state/company-sheet-plan";
import { chartRequest } from "../../taskpane/chart-plan";
import { translator } from "../../taskpane/i18n/messages";

afterEach(uninstallFakeExcel);

test("insertChart(prices): a line of the split-adjusted close by date, oldest on the left, beside the table", async () => {
  const fake = installFakeExcel({
    sheets: [{ name: "Data" }],
    tables: [
      {
        name: "Kaisha_prices_7203",
        sheet: "Data",
        address: "Data!B2:H101",
        rowCount: 100,
        columnCount: 7,
      },
    ],
  });
  const columns = ["date", "open", "high", "low", "close", "adj_close", "volume"].map((key) => ({
    key,
    header: key,
  }));
  const request = chartRequest("prices", "Kaisha_prices_7203", columns, "7203", translator("ja"));
  expect(request).toBeDefined();
  await insertChart(request!);
  const chart = fake.charts[0]!;
  expect(chart.type).toBe("Line");
  // The split-adjusted close alone: the unadjusted close would drop at every split.
  expect(chart.source).toBe(fake.range("Data", "G3:G101")); // adj_close
  expect(chart.chart.title.text).toBe("7203 株価（分割調整後終値）");
  expect(chart.added).toHaveLength(1);
  expect(chart.added[0].name).toBe("adj_close");
  expect(fake.log.filter((l) => l === "x Data!B3:B101")).toHaveLength(1);
  expect(chart.chart.axes.categoryAxis.reversePlotOrder).toBe(true);
  expect(fake.log).toContain("chart at J2");
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
  return installFakeExcel({
    sheets: [{ name: "Data" }],
    tables: [
      {
        name: "Kaisha_valuations_7203",
        sheet: "Data",
        address: "Data!A1:D21",
        rowCount: 21,
        columnCount: 4,
      },
    ],
  });
}

test("insertChart(valuations) without ExcelApi 1.8: PBR stays on the main axis and its legend says so", async () => {
  hostWithExcelApi(7);
  const fake = valuationsTable();
  const columns = ["fiscal_year", "per", "pbr_adjusted"].map((key) => ({ key, header: key }));
  const t = translator("en");
  await insertChart(chartRequest("valuations", "Kaisha_valuations_7203", columns, "7203", t)!);
  const chart = fake.charts[0]!;
  expect(chart.added[1].axisGroup).toBeUndefined();
  expect(chart.added[1].name).toBe("pbr_adjusted (main axis: this Excel has no secondary axis)");
});

test("insertChart(valuations): PER on the main axis, PBR on the secondary axis so it does not lie flat", async () => {
  hostWithExcelApi(8);
  const fake = installFakeExcel({
    sheets: [{ name: "Data" }],
    tables: [
      {
        name: "Kaisha_valuations_7203",
        sheet: "Data",
        address: "Data!A1:D21",
        rowCount: 21,
        columnCount: 4,
      },
    ],
  });
  const columns = ["fiscal_year", "per", "pbr_adjusted", "market_cap"].map((key) => ({
    key,
    header: key,
  }));
  const t = translator("ja");
  await insertChart(chartRequest("valuations", "Kaisha_valuations_7203", columns, "7203", t)!);
  const chart = fake.charts[0]!;
  expect(chart.source).toBe(fake.range("Data", "B2:B21")); // per
  expect(chart.added[0].name).toBe("per");
  expect(fake.log).toContain("values pbr_adjusted Data!C2:C21");
  expect(chart.added[0].axisGroup).toBeUndefined();
  expect(chart.added[1].axisGroup).toBe("Secondary");
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

const TEN_YEARS = Array.from({ length: 10 }, (_, i) => `${2015 + i}/03`);

test("buildCompanySheet: card, FINANCIAL summary by fiscal year referring to the code cell, VALUATION spill", async () => {
  const fake = installFakeExcel({ sheets: [{ name: "Sheet1" }] });
  const layout = companySheetLayout("7203", TEN_YEARS, "ja");
  const name = await buildCompanySheet(layout.plan);
  expect(name).toBe("Kaisha_7203");
  expect(fake.sheetsAdded).toEqual(["Kaisha_7203"]);
  expect(fake.range("Kaisha_7203", "B2").values).toEqual([["7203"]]);
  expect(fake.range("Kaisha_7203", "B2").numberFormat).toEqual([["@"]]);
  expect(fake.range("Kaisha_7203", "A5").formulas).toEqual([["=KAISHA.COMPANY($B$2)"]]);
  // Header row 9: fiscal years as text, oldest left, latest right (not "9期前 … 最新期").
  expect(fake.range("Kaisha_7203", "C9").values).toEqual([["2015/03期"]]);
  expect(fake.range("Kaisha_7203", "L9").values).toEqual([["2024/03期"]]);
  expect(fake.range("Kaisha_7203", "L9").numberFormat).toEqual([["@"]]);
  // Sales (row 10), latest year, in million yen: fiscal_period is the column's year header.
  expect(fake.range("Kaisha_7203", "A10").values).toEqual([["売上高"]]);
  expect(fake.range("Kaisha_7203", "L10").formulas).toEqual([
    ['=KAISHA.FINANCIAL($B$2,$B10,L$9,"annual",,"million_jpy")'],
  ]);
  expect(fake.range("Kaisha_7203", "L10").numberFormat).toEqual([["#,##0"]]);
  // EPS is per share: never scaled.
  expect(fake.range("Kaisha_7203", "C18").formulas).toEqual([
    ['=KAISHA.FINANCIAL($B$2,$B18,C$9,"annual")'],
  ]);
  // The summary's source sits right under it (row 24), as the imports' captions do.
  expect(fake.range("Kaisha_7203", "A24").formulas).toEqual([
    ['=KAISHA.ATTRIBUTION("financials")'],
  ]);
  // fiscal_year is VALUATION's own first column, never a field (spec 3: not in fields[]).
  expect(fake.range("Kaisha_7203", "A27").formulas).toEqual([
    [
      '=KAISHA.VALUATION($B$2,"stock_price_adjusted,per,pbr_adjusted,dividend_yield_adjusted,market_cap",10)',
    ],
  ]);
  expect(fake.range("Kaisha_7203", "A40").values).toEqual([["株価（過去1年）"]]);
  expect(layout.pricesAnchor).toBe("A41");
  expect(fake.log).toContain("activate Kaisha_7203");
});

test("companySheetLayout: English headers are plain YYYY/MM; fewer years give fewer columns", () => {
  const layout = companySheetLayout("7203", ["2023/03", "2024/03"], "en");
  const at = (a: string) => layout.plan.cells.find((c) => c.address === a);
  expect(at("C9")?.value).toBe("2023/03");
  expect(at("D9")?.value).toBe("2024/03");
  expect(at("E9")).toBeUndefined();
  expect(at("D10")?.formula).toBe('=KAISHA.FINANCIAL($B$2,$B10,D$9,"annual",,"million_jpy")');
  expect(() => companySheetLayout("7203", [], "en")).toThrow(RangeError);
});

test("companyFiscalYears: the latest annual years, oldest first, from the 30-year request FINANCIAL cells share", async () => {
  const calls: unknown[] = [];
  const client = {
    financials: (q: unknown) => {
      calls.push(q);
      return Promise.resolve({
        periods: [
          { fiscal_year: "2024/03", quarter: null },
          { fiscal_year: "2022/03", quarter: null },
          { fiscal_year: "2023/03", quarter: null },
          { fiscal_year: "2024/03", quarter: "Q1" },
        ],
      });
    },
  };
  expect(await companyFiscalYears(client, "7203", 2)).toEqual(["2023/03", "2024/03"]);
  expect(await companyFiscalYears(client, "7203", 10)).toEqual(["2022/03", "2023/03", "2024/03"]);
  expect(calls[0]).toEqual({ security_code: "7203", period: "annual", years: 30 });
});
