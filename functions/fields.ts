// FIELDS: the field dictionary of a dataset (key, Japanese label, unit) from the contract: no request.

import { FIELD_DICTIONARY, type Dataset, type FieldInfo } from "../src/contract";
import { headersArg, requiredChoice } from "../src/excel/args";
import { columnName, titleCaption } from "../src/excel/labels";
import type { Column } from "../src/excel/shape";
import type { Cell } from "../src/excel/values";
import { plainColumn, table } from "./common";
import { run, type InvocationLike } from "./run";

export const DATASETS: readonly Dataset[] = Object.keys(FIELD_DICTIONARY) as Dataset[];

/** FIELDS: one row per numeric field of `dataset`, in the API's schema order. */
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
      ...["label", "unit"].map((k) => plainColumn(k) as Column<FieldInfo>),
    ];
    return table(ctx, columns, FIELD_DICTIONARY[which], mode, {
      identifier: which,
      dataset: titleCaption("fields", ctx.headerLanguage),
      asOf: "",
      source: "",
    });
  });
}
