// Cursor paging (openapi.json next_cursor): repeat the same conditions with each next_cursor until
// null.

import { BadResponseError } from "./errors";
import { ANSWER_MESSAGES } from "./answer-messages";
import type { PaginateOptions, RequestOptions } from "./types";

/** @default 50 */
const DEFAULT_MAX_PAGES = 50;

/**
 * Yields pages of a cursor endpoint. Stops after the page whose `next_cursor` is null (or absent),
 * after `maxPages` pages, and throws BadResponseError when the API repeats a cursor (which would
 * otherwise loop forever). openapi.json listSecurityDisclosures: the other conditions must stay
 * equal, so only `cursor` changes.
 *
 * @example
 * for await (const page of client.paginate("getPrices", { code: "7203", limit: 500 })) rows.push(...page.prices);
 */
export async function* paginate<Page>(
  fetchPage: (query: Record<string, unknown>, options: RequestOptions) => Promise<Page>,
  query: Readonly<Record<string, unknown>>,
  options: PaginateOptions = {},
): AsyncGenerator<Page, void, undefined> {
  const { maxPages = DEFAULT_MAX_PAGES, ...requestOptions } = options;
  const seen = new Set<string>();
  let cursor = query.cursor;
  if (typeof cursor === "string" && cursor !== "") seen.add(cursor);
  for (let page = 0; page < maxPages; page += 1) {
    const conditions = { ...query };
    if (typeof cursor === "string" && cursor !== "") conditions.cursor = cursor;
    else delete conditions.cursor;
    const body = await fetchPage(conditions, requestOptions);
    yield body;
    const next = (body as { next_cursor?: unknown } | null)?.next_cursor;
    if (next === null || next === undefined || next === "") return;
    if (typeof next !== "string") throw new BadResponseError("next_cursor is not a string");
    if (seen.has(next)) {
      throw new BadResponseError("repeated cursor", { message: ANSWER_MESSAGES.repeatedCursor() });
    }
    seen.add(next);
    cursor = next;
  }
}
