// Functions a model rarely uses, loaded on their first call: the runtime page evaluates less
// JavaScript before the functions register (test/e2e/build.test.ts holds its budget).

import { FunctionError, INVALID_VALUE } from "./excel-errors";
import { failedAtOnce, type InvocationLike } from "./run";

/** What a cell shows when its function's code could not be fetched (the add-in's own origin). */
function notLoaded(): FunctionError {
  return new FunctionError(
    INVALID_VALUE,
    "The add-in could not load this function's code: check the connection, then close and reopen the workbook",
    "この関数のプログラムを読み込めませんでした：接続を確認し、ブックを開き直してください",
  );
}

/**
 * A module loaded on first use (webpack's dynamic import: a chunk of its own, fetched from the
 * add-in's origin) and kept: later calls use it without another load. A failed load is the
 * calling cell's #VALUE! with a message (and in the Problems list), tried again by the next call.
 *
 * @example const people = lazyModule(() => import("./persons")); people(inv, (m) => m.person("P1", 1, inv));
 */
export function lazyModule<M>(
  load: () => Promise<M>,
): <T>(invocation: InvocationLike | undefined, use: (module: M) => T | Promise<T>) => Promise<T> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return (invocation, use) => {
    // A table answered from memory is the table itself (define-table.ts TableResult): these rarely
    // used functions give it as a promise still, as their wrappers declare.
    if (loaded !== undefined) return Promise.resolve(use(loaded));
    loading ??= load().then(
      (module) => (loaded = module),
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading.then(use, () => failedAtOnce(invocation, notLoaded()));
  };
}
