// Walks of a cursor endpoint's pages as one answer for a table (PRICES ranges, DISCLOSURES): read
// page by page from memory as paginate asks them, or fetched through the call; one walk object
// per set of pages, so a table built from it is given again while the pages are the same.

import {
  isStale,
  type KaishaClient,
  type PaginatedOperationId,
  type ParamsOf,
  type ResponseOf,
} from "../../src/client";
import type { CallContext } from "../run";

/** A walk's pages, in order (an answer of defineTable: the same object for the same pages). */
export interface PageWalk<P> {
  readonly pages: readonly P[];
}

/** Where a walk stops: at most `maxPages`, or sooner once `enough(pages)` (DISCLOSURES' limit). */
export interface WalkLimits<P> {
  readonly maxPages: number;
  enough?(pages: readonly P[]): boolean;
}

/** Walks already assembled, by their first page. */
const walks = new WeakMap<object, PageWalk<unknown>>();

/** The walk of these pages: the one assembled before from the very same pages, or a new one. */
function walkOf<P extends object>(pages: readonly P[]): PageWalk<P> {
  const first = pages[0];
  const known = first === undefined ? undefined : (walks.get(first) as PageWalk<P> | undefined);
  if (known?.pages.length === pages.length && known.pages.every((p, i) => p === pages[i]))
    return known;
  const made: PageWalk<P> = Object.freeze({ pages });
  if (first !== undefined && pages.every((p) => Object.isFrozen(p) && !isStale(p)))
    walks.set(first, made);
  return made;
}

function nextCursor(page: object): string | undefined {
  const next = (page as { next_cursor?: unknown }).next_cursor;
  return typeof next === "string" && next !== "" ? next : undefined;
}

/**
 * Every page of the walk fresh in memory, asked as client.paginate asks them (the same conditions,
 * then each next_cursor), else undefined (a repeated cursor too: paginate's error to report).
 */
export function peekWalk<O extends PaginatedOperationId>(
  client: KaishaClient,
  operationId: O,
  query: ParamsOf<O>,
  limits: WalkLimits<ResponseOf<O>>,
): PageWalk<ResponseOf<O>> | undefined {
  const pages: ResponseOf<O>[] = [];
  let params = query;
  for (let n = 0; n < limits.maxPages; n++) {
    const page = client.peek(operationId, params);
    if (page === undefined) return undefined;
    pages.push(page);
    if (limits.enough?.(pages) === true) break;
    const next = nextCursor(page);
    if (next === undefined) break;
    if (pages.some((p, i) => i < n && nextCursor(p) === next)) return undefined;
    params = { ...query, cursor: next };
  }
  return walkOf(pages);
}

/** The walk through the call: each page an answer cached as any other (client.paginate). */
export async function fetchWalk<O extends PaginatedOperationId>(
  ctx: CallContext,
  operationId: O,
  query: ParamsOf<O>,
  limits: WalkLimits<ResponseOf<O>>,
): Promise<PageWalk<ResponseOf<O>>> {
  const pages: ResponseOf<O>[] = [];
  for await (const page of ctx.client.paginate(operationId, query, {
    ...ctx.options,
    maxPages: limits.maxPages,
  })) {
    pages.push(page);
    if (limits.enough?.(pages) === true) break;
  }
  return walkOf(pages);
}
