// FIELDS: the field dictionary of a dataset (key, Japanese label, unit) from the contract: no request.

import { FIELD_DICTIONARY, type Dataset, type FieldInfo } from "../src/contract";
import { headersArg, requiredChoice } from "../src/excel/args";
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
    const columns = ["key", "label", "unit"].map((k) => plainColumn(k) as Column<FieldInfo>);
    return table(ctx, columns, FIELD_DICTIONARY[which], mode, {
      identifier: which,
      dataset: "fields",
      asOf: "",
      source: "",
    });
  });
}
