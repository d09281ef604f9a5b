// The `order` argument of every time-series function and the one way rows are put in time order.

import { optionalChoice } from "./args";

/** asc: oldest first (the default); desc: newest first. */
export type Order = "asc" | "desc";

/**
 * `order`: asc (default) or desc; also oldest/newest, 古い順/新しい順, 昇順/降順. One default for
 * every time-series function: oldest first is how statements read (left to right), how Excel's
 * charts, FORECAST and growth formulas (=C2/B2-1) expect a series, and how FINANCIALS already
 * laid out its periods.
 */
export function orderArg(value: unknown, argument = "order"): Order {
  return optionalOrderArg(value, argument) ?? "asc";
}

/** Every spelling of a direction, one table for `order` and SCREEN's `sort_order`. */
const ORDER_WORDS: Readonly<Record<string, Order>> = {
  ascending: "asc",
  descending: "desc",
  oldest: "asc",
  oldest_first: "asc",
  newest: "desc",
  newest_first: "desc",
  古い順: "asc",
  新しい順: "desc",
  昇順: "asc",
  降順: "desc",
  小さい順: "asc",
  大きい順: "desc",
};

/**
 * A direction, undefined when omitted: asc / desc and the same words `order` takes (昇順 / 降順,
 * ascending / descending, ...). SCREEN's sort_order uses it so it leaves the API's default
 * (openapi.json getScreening sort_order: desc) when omitted.
 *
 * @example optionalOrderArg("降順", "sort_order") // "desc"
 */
export function optionalOrderArg(value: unknown, argument: string): Order | undefined {
  return optionalChoice<Order>(value, argument, ["asc", "desc"], ORDER_WORDS);
}

/**
 * Rows in time order by `timeOf` (a sortable text such as "2024-03-31", "2024/03 3" or a year):
 * oldest first for asc, newest first for desc. Rows of the same time keep their given order
 * (segments of one period stay by name), whatever the API's own order was.
 *
 * @example inOrder(pricesNewestFirst, (p) => p.date, "asc") // oldest day first
 */
export function inOrder<T>(rows: readonly T[], timeOf: (row: T) => string, order: Order): T[] {
  const sign = order === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, time: timeOf(row) }))
    .sort((a, b) => (a.time < b.time ? -sign : a.time > b.time ? sign : a.index - b.index))
    .map((e) => e.row);
}
