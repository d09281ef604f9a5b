// Client code only network reads use, each a chunk of its own off the runtime page: the HTTP exchange, the answer check (response-check.ts with the contract's field table) and cursor paging.

import { lazyCode } from "./lazy-code";

/**
 * The answer check, fetched once from the add-in's origin and kept. Only answers from the network
 * are checked, so a warm cell never waits for it; the client starts the load with its first
 * request and awaits it with the answer (the chunk arrives long before the API answers). A failed
 * load is a connection error (check the connection, recalculate), tried again by the next request;
 * the answer it could not check is not kept.
 *
 * @example const { checkAnswer } = await loadAnswerCheck();
 */
export const loadAnswerCheck = lazyCode(
  () => import(/* webpackChunkName: "answer-check" */ "./response-check"),
);

/**
 * The read-back check of stored answers (stored-check.ts), in the answer check's chunk: off the
 * runtime page, fetched with the first answer read from storage (a read is asynchronous already).
 */
export const loadStoredCheck = lazyCode(
  () => import(/* webpackChunkName: "answer-check" */ "./stored-check"),
);

/**
 * The HTTP exchange (send.ts), fetched before the client's first request and kept: a warm cell
 * never sends, so the runtime page registers the functions without it. A failed load is a
 * connection error before any request is paced or sent (nothing of the quota is spent).
 */
export const loadSend = lazyCode(() => import(/* webpackChunkName: "send" */ "./send"));

/** Cursor paging (paginate.ts): only list reads that walk pages use it. */
export const loadPaginate = lazyCode(() => import(/* webpackChunkName: "paginate" */ "./paginate"));

/** Expected results days (src/client/results-day-history.ts): looked up as filing answers are read. */
export const loadResultsDays = lazyCode(
  () => import(/* webpackChunkName: "send" */ "./results-day-history"),
);
