// Which columns of an imported table a chart uses (prices: split-adjusted close by date; valuations: PER/PBR).

import type { ChartRequest } from "./excel/chart";
import type { Translator } from "./i18n/messages";
import type { DatasetId } from "./state/datasets";
import type { ColumnSpec } from "./state/table-data";

const SERIES: Partial<
  Record<
    DatasetId,
    {
      x: string;
      series: string[];
      /** series on the secondary value axis: PBR (about 1x) beside PER (10-20x) would lie flat. */
      secondary?: string[];
      title: "chartPricesTitle" | "chartValuationTitle";
    }
  >
> = {
  // The split-adjusted close only: the unadjusted close drops at every split (7203's 1:5 in 2021
  // would read as an 80% crash); openapi.json getPrices: adj_close is on the latest share basis.
  prices: { x: "date", series: ["adj_close"], title: "chartPricesTitle" },
  valuations: {
    x: "fiscal_year",
    series: ["per", "pbr_adjusted"],
    secondary: ["pbr_adjusted"],
    title: "chartValuationTitle",
  },
};

/** The chart request for a table, or undefined when the dataset or its columns do not allow one. */
export function chartRequest(
  dataset: DatasetId,
  tableName: string,
  columns: readonly Pick<ColumnSpec, "key" | "header">[],
  code: string,
  t: Translator,
): ChartRequest | undefined {
  const plan = SERIES[dataset];
  if (!plan) return undefined;
  const x = columns.findIndex((c) => c.key === plan.x);
  const series = plan.series.flatMap((key) => {
    const i = columns.findIndex((c) => c.key === key);
    const col = columns[i];
    if (!col) return [];
    return plan.secondary?.includes(key)
      ? [{ column: i, name: col.header, secondary: true }]
      : [{ column: i, name: col.header }];
  });
  if (x < 0 || series.length === 0) return undefined;
  return {
    tableName,
    title: t(plan.title, { code }),
    xColumn: x,
    series,
    newestFirst: true,
    mainAxisNote: t("chartMainAxisNote"),
  };
}
