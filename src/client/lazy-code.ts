// Client code kept off the runtime page: a module fetched once on first need (webpack's dynamic import), a connection error if it cannot be.

import { ConnectionError } from "./errors";

/**
 * `load` run once and its module kept; a failed load is a ConnectionError with an actionable
 * message (the add-in's own origin could not be reached), and the next call tries again.
 *
 * @example const answerCheck = lazyCode(() => import("./response-check")); (await answerCheck()).checkAnswer
 */
export function lazyCode<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () =>
    (loading ??= load().catch(() => {
      loading = undefined;
      throw new ConnectionError({
        message: {
          en: "The add-in could not load part of its code: check the connection, then recalculate",
          ja: "アドインのプログラムの一部を読み込めませんでした：接続を確認してから再計算してください",
        },
      });
    }));
}
