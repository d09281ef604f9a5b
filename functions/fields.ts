// FIELDS: the field dictionary of a dataset (key, Japanese label, unit) from the contract: no request.

import { FIELD_DICTIONARY, type Dataset, type FieldInfo } from "../src/contract";
import { headersArg, requiredChoice } from "../src/excel/args";
import { columnName, titleCaption, unitLabel } from "../src/excel/labels";
import type { Column } from "../src/excel/shape";
import type { Cell } from "../src/excel/values";
import type { Lang } from "../src/session";
import { plainColumn, table } from "./common";
import { run, type InvocationLike } from "./run";

export const DATASETS: readonly Dataset[] = Object.keys(FIELD_DICTIONARY) as Dataset[];

/**
 * What a percentage's cells hold (percent-scale.ts): the one scale, and how it relates to the
 * API's own value, so a cell can be checked against the API by hand.
 */
const SCALE_NOTES: Readonly<Record<"percent" | "ratio", Record<Lang, string>>> = {
  percent: {
    en: "fraction shown as % (0.077 = 7.7%): the API's percent value / 100",
    ja: "小数（0.077 = 7.7%）を % 表示：API の値（%）÷ 100",
  },
  ratio: {
    en: "fraction shown as % (0.077 = 7.7%): the API's value as sent",
    ja: "小数（0.077 = 7.7%）を % 表示：API の値のまま",
  },
};

/**
 * FIELDS: one row per numeric field of `dataset`, in the API's schema order: key, label (a
 * percentage's with （%）), the contract's unit id, and for percentages the scale of the cells.
 */
export function fields(
  dataset: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const which = requiredChoice(dataset, "dataset", DATASETS, {
      valuation: "valuations",
      financial: "financials",
      price: "prices",
      segment: "segments",
      dividend: "dividends",
    });
    const mode = headersArg(headers);
    // The key column shows the name the data functions use for the field (`close`, not the
    // margin endpoint's `close_price`), so a key read here is the header seen there.
    const columns: Column<FieldInfo>[] = [
      { ...(plainColumn("key") as Column<FieldInfo>), value: (f) => columnName(f.key) },
      {
        ...(plainColumn("label") as Column<FieldInfo>),
        value: (f) => unitLabel(f.label, f.unit) ?? "",
      },
      plainColumn("unit") as Column<FieldInfo>,
      {
        ...(plainColumn("note") as Column<FieldInfo>),
        value: (f) =>
          f.unit === "percent" || f.unit === "ratio" ? SCALE_NOTES[f.unit][ctx.lang] : "",
      },
    ];
    return table(ctx, columns, FIELD_DICTIONARY[which], mode, {
      identifier: which,
      dataset: titleCaption("fields", ctx.headerLanguage),
      asOf: "",
      source: "",
    });
  });
}
