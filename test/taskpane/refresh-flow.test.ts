// Refresh all ends with what it did: formulas recalculated, cells still in error (with the link to
// Problems), cells still calculating, requests spent; never a success over cells showing errors.

import { refreshAll, refreshMessage, type RefreshDeps } from "../../taskpane/state/refresh-flow";
import type { KaishaCell } from "../../taskpane/excel/formulas";
import { translator } from "../../taskpane/i18n/messages";

const cell = (address: string, value: unknown): KaishaCell => ({
  sheet: "Model",
  address,
  formula: `=KAISHA.FINANCIAL(7203,"sales",0)`,
  value,
});

/**
 * A workbook of three KAISHA cells after a full recalculation: B1 and B2 calculate (#BUSY!) while
 * the client sends `sent` requests, then B1 answers and B2 shows #VALUE! (an item "salez"); B3
 * answers at once. `answerAfter` polls until the answers are in (never, for a hung cell).
 */
function workbook(answerAfter: number, sent = 3) {
  let requests = 0;
  let recalculated = false;
  let polls = 0;
  const sleeps: number[] = [];
  const answered = () => recalculated && polls >= answerAfter;
  const deps: RefreshDeps = {
    invalidateAll: () => undefined,
    scanKaishaCells: async () => {
      if (recalculated) polls += 1;
      return answered()
        ? [cell("B1", 2_000), cell("B2", "#VALUE!"), cell("B3", 5)]
        : [cell("B1", "#BUSY!"), cell("B2", "#BUSY!"), cell("B3", 5)];
    },
    recalculateAll: async () => {
      recalculated = true;
      requests += sent;
    },
    readImportDefinitions: async () => [],
    existingTableNames: async () => new Set(),
    refreshImport: async () => undefined,
    requestsSent: () => requests,
    clientIdle: () => answered(),
    sleep: async (ms) => void sleeps.push(ms),
  };
  return { deps, sleeps };
}

test("Refresh all waits for the answers, then reports the cell still in error and the requests spent", async () => {
  const { deps, sleeps } = workbook(3);
  const summary = await refreshAll(deps, { formulas: true });
  expect(summary).toMatchObject({ formulas: 3, errors: 1, pending: 0, requests: 3 });
  // It read the workbook until the answers were in, not once right after the recalculation.
  expect(sleeps.length).toBe(2);

  const ja = refreshMessage(summary, translator("ja"), String);
  expect(ja.intent).toBe("warning");
  expect(ja.showProblems).toBe(true);
  expect(ja.text).toContain("KAISHA関数のセル 1個がまだエラーです。");
  expect(ja.text).toContain("API へのリクエストは 3件でした。");
  const en = refreshMessage(summary, translator("en"), String);
  expect(en.text).toBe(
    "Recalculated 3 KAISHA formulas; refreshed 0 of 0 imports. 3 requests sent to the API." +
      " 1 KAISHA cell still shows an error.",
  );
  expect(translator("en")("refreshShowProblems")).toBe("Show them in Problems");
  expect(en.data).toMatchObject({ errors: "1", requests: "3" });
});

test("a cell that never answers is reported as still calculating once the client's deadline has passed", async () => {
  const { deps, sleeps } = workbook(Number.POSITIVE_INFINITY);
  const summary = await refreshAll(deps, { formulas: true });
  expect(summary).toMatchObject({ errors: 0, pending: 2 });
  // src/client/deadline.ts: every call settles within 120 s; the wait is no longer.
  expect(sleeps.reduce((a, b) => a + b, 0)).toBe(120_000);
  const m = refreshMessage(summary, translator("en"), String);
  expect(m.intent).toBe("warning");
  expect(m.showProblems).toBe(false);
  expect(m.text).toContain("2 cells are still calculating.");
});

test("a clean refresh is a success with no link to Problems", async () => {
  const { deps } = workbook(1, 0);
  const clean: RefreshDeps = {
    ...deps,
    scanKaishaCells: async () => [cell("B3", 5)],
  };
  const summary = await refreshAll(clean, { formulas: true });
  const m = refreshMessage(summary, translator("ja"), String);
  expect(m).toMatchObject({ intent: "success", showProblems: false });
  expect(m.text).toBe(
    "KAISHA関数 1個を再計算し、取り込み 0件中0件を更新しました。API へのリクエストは 0件でした。",
  );
});

test("Refresh imports alone does not wait for formulas and reports its requests", async () => {
  const { deps, sleeps } = workbook(Number.POSITIVE_INFINITY);
  const summary = await refreshAll(deps, { formulas: false });
  expect(summary).toMatchObject({ formulas: 0, errors: 0, pending: 0, requests: 0 });
  expect(sleeps).toEqual([]);
});
