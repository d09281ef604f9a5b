// One money scale in imports: every dataset of the field dictionary in every money unit keeps each
// amount of yen exact (shown in the unit by format) and each price, per-share, count and ratio
// column equal to the API's value, driven from FIELD_DICTIONARY so a new field is covered.

import { FIELD_DICTIONARY, type Dataset, type FieldInfo } from "../../src/contract";
import type { MoneyUnit } from "../../src/excel/args";
import { formatNumber } from "../../standin/cell-display";
import {
  DATASET_PARAMS,
  defaultParams,
  fetchDatasetTable,
  type DatasetId,
  type ParamValues,
} from "../../taskpane/state/datasets";
import type { TableData } from "../../taskpane/state/table-data";
import { sandboxClient } from "./sandbox-client";
import * as KAISHA from "../../functions/index";
import { call } from "../functions/call-by-name";
import { resetSession, useSandbox } from "../functions/harness";
import { resolveEdinetCode } from "../../src/domain/edinet-resolution";

jest.setTimeout(300_000);

const CODE = "7203";
const { client } = sandboxClient();

/**
 * The documented rule (README "Money (one scale)"), written here apart from the add-in's code: an
 * amount of yen is the `jpy` field whose openapi.json x-money-kind is "amount"; the unit shows it
 * by dividing by 1,000 per step (円, 千円, 百万円; a stored 億円 shows 百万円).
 */
const SHOWN: Record<MoneyUnit, { divisor: number; ja: string }> = {
  jpy: { divisor: 1, ja: "円" },
  thousand_jpy: { divisor: 1_000, ja: "千円" },
  million_jpy: { divisor: 1_000_000, ja: "百万円" },
  hundred_million_jpy: { divisor: 1_000_000, ja: "百万円" },
};
const UNITS = Object.keys(SHOWN) as MoneyUnit[];
// openapi.json x-money-kind "amount" is the dictionary's default (no `money`).
const isAmount = (f: FieldInfo) => f.unit === "jpy" && f.money === undefined;

/** The API's own rows of each dataset, asked as the import form asks them (its defaults). */
async function apiRows(dataset: Dataset): Promise<Record<string, unknown>[]> {
  const rows = (body: unknown, key: string) =>
    (body as Record<string, Record<string, unknown>[]>)[key] ?? [];
  const edinet = await resolveEdinetCode(client, CODE);
  switch (dataset) {
    case "financials":
      return rows(
        await client.financials({ security_code: CODE, period: "annual", years: 10 }),
        "periods",
      );
    case "valuations":
      return rows(await client.valuations({ security_code: CODE, years: 20 }), "history");
    case "prices":
      return rows(
        await client.prices({ code: CODE, from: "2026-06-01", to: "2026-11-19", limit: 500 }),
        "prices",
      );
    case "segments":
      return rows(await client.segments({ edinet_code: edinet, period: "annual" }), "segments");
    case "dividends":
      return rows(await client.dividends({ edinet_code: edinet }), "records");
    case "margin":
      return rows(await client.weeklyMargin({ code: CODE, period: "52w" }), "weeks");
    case "jsf":
      return rows(await client.jsfMarginDaily({ code: CODE, period: "1y" }), "days");
  }
}

function params(dataset: DatasetId, unit: MoneyUnit): ParamValues {
  const p = defaultParams(dataset);
  for (const k of ["code", "security_code"]) if (k in p) p[k] = CODE;
  if (dataset === "prices") Object.assign(p, { from: "2026-06-01", to: "2026-11-19" });
  p.unit = unit;
  return p;
}

/** What the user reads in a cell, as a number again ("4,355" -> 4355, "29,955,310" -> 29955310). */
function shownNumber(value: number, format: string): number {
  return Number(formatNumber(value, format).replace(/[,%]/g, ""));
}

const DATASETS = Object.keys(FIELD_DICTIONARY) as Dataset[];

describe.each(DATASETS)("%s import", (dataset) => {
  let api: Record<string, unknown>[];
  beforeAll(async () => {
    api = await apiRows(dataset);
    expect(api.length).toBeGreaterThan(0);
  });

  test.each(UNITS)(
    "in %s: money exact in yen shown in the unit, every other column as the API's",
    async (unit) => {
      const table: TableData = await fetchDatasetTable(
        dataset as DatasetId,
        params(dataset, unit),
        {
          client,
          lang: "ja",
          headers: "ja",
        },
      );
      expect(table.rows).toHaveLength(api.length);
      // Datasets without a money unit in their form (prices, dividends, margin, jsf) show yen.
      const scaled = DATASET_PARAMS[dataset as DatasetId].some((p) => p.name === "unit");
      const shown = SHOWN[scaled ? unit : "jpy"];
      const checked = { amount: 0, other: 0 };
      // Every cell's mismatch, asserted once below (one expect per cell was most of this file's
      // time); Object.is is toEqual's rule for the numbers and strings compared here.
      const wrong: unknown[][] = [];
      const same = (where: unknown[], got: unknown, want: unknown): void => {
        if (!Object.is(got, want)) wrong.push([...where, got, "expected", want]);
      };
      for (const field of FIELD_DICTIONARY[dataset]) {
        const j = table.columns.findIndex((c) => c.key === field.key);
        if (j < 0) continue;
        const column = table.columns[j]!;
        api.forEach((record, i) => {
          const sent = record[field.key];
          const cell = table.rows[i]?.[j];
          const where = [dataset, unit, field.key, i];
          if (typeof sent !== "number") {
            same(where, cell, "");
            return;
          }
          if (isAmount(field)) {
            // The cell is the API's yen; the user reads it in the unit chosen.
            same(where, cell, sent);
            same(
              [...where, "shown"],
              shownNumber(cell as number, column.numberFormat),
              Math.round(sent / shown.divisor),
            );
            checked.amount += 1;
            return;
          }
          const want = field.unit === "percent" ? sent / 100 : sent;
          same(where, cell, want);
          // A price, per-share figure, count or multiple reads as sent (at most two decimals).
          if (field.unit !== "percent" && field.unit !== "ratio")
            same(
              [...where, "shown"],
              shownNumber(cell as number, column.numberFormat),
              Math.round(sent * 100) / 100,
            );
          checked.other += 1;
        });
        // The header says the unit shown: amounts the table's, a price 円, others their own.
        if (isAmount(field)) expect(column.header).toBe(`${field.label}（${shown.ja}）`);
        else if (field.unit === "jpy") expect(column.header).toBe(`${field.label}（円）`);
      }
      expect(wrong).toEqual([]);
      expect(checked.other).toBeGreaterThan(0);
      if (FIELD_DICTIONARY[dataset].some(isAmount)) expect(checked.amount).toBeGreaterThan(0);
    },
  );
});

test("a valuations import in 百万円 shows the price per share, not 0", async () => {
  const table = await fetchDatasetTable("valuations", params("valuations", "million_jpy"), {
    client,
    lang: "ja",
    headers: "ja",
  });
  const price = table.columns.findIndex((c) => c.key === "stock_price");
  const cap = table.columns.findIndex((c) => c.key === "market_cap");
  const last = table.rows[table.rows.length - 1]!;
  expect(table.columns[price]?.header).toBe("株価（期末）（円）");
  expect(table.columns[cap]?.header).toBe("時価総額（百万円）");
  expect(shownNumber(last[price] as number, table.columns[price]!.numberFormat)).toBeGreaterThan(
    100,
  );
});

describe("an imported table cell with a FINANCIAL cell", () => {
  afterAll(resetSession);

  test("in a 百万円 import, sales minus FINANCIAL's sales is 0 yen and sales times FINANCIAL's equity ratio is the API's yen", async () => {
    useSandbox();
    const table = await fetchDatasetTable("financials", params("financials", "million_jpy"), {
      client,
      lang: "ja",
    });
    const col = (key: string) => table.columns.findIndex((c) => c.key === key);
    // The latest fiscal year of the import is FINANCIAL's fiscal_period 0.
    const latest = [...table.rows].sort((a, b) =>
      String(b[col("fiscal_year")]).localeCompare(String(a[col("fiscal_year")])),
    )[0]!;
    const imported = latest[col("sales")] as number;
    const financialSales = await call<number>(KAISHA.FINANCIAL, "7203", {
      item: "sales",
      fiscal_period: 0,
    });
    const equityRatio = await call<number>(KAISHA.FINANCIAL, "7203", {
      item: "equity_ratio",
      fiscal_period: 0,
    });
    const api = (await client.financials({ security_code: CODE, period: "annual", years: 10 }))
      .periods;
    const sent = api.find((p) => p.fiscal_year === latest[col("fiscal_year")])!;
    expect(imported - financialSales).toBe(0);
    expect(imported * equityRatio).toBe((sent.sales as number) * (sent.equity_ratio as number));
    // What the analyst reads in the import is 百万円 all the same.
    expect(formatNumber(imported, table.columns[col("sales")]!.numberFormat)).toBe(
      Math.round((sent.sales as number) / 1_000_000).toLocaleString("en-US"),
    );
  });
});
