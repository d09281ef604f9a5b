// Jest's order of suites: the longest first, so the workers of `npm test` end together. jest's
// own sequencer orders by the durations its cache recorded in an earlier run; a fresh clone (CI)
// has no cache and got the order of file sizes, which started the slowest suites last.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/**
 * Seconds each of the slowest suites takes: the order for a suite jest's cache does not know. Unit
 * suites by their CPU (user + system from set-up to the last test, one `jest --maxWorkers=2` run on a
 * fresh clone), browser suites by their wall on the idle machine (their worker mostly waits on the
 * page; the generated-files suite's work is in its child process). A suite missing here is ordered by
 * file size after them; refresh the list when a suite becomes one of the slow ones.
 */
const KNOWN_SECONDS = {
  "test/e2e/morning-open.test.ts": 42,
  "test/e2e/pane-formulas.test.ts": 23,
  "test/functions/percent-scale.test.ts": 19,
  "test/e2e/cockpit-pane.test.ts": 17,
  "test/e2e/hostile-writes.test.ts": 16,
  "test/contract/generated-files.test.ts": 15,
  "test/e2e/analyst-sheets.test.ts": 13,
  "test/e2e/preview.test.ts": 13,
  "test/sandbox/data/dataset.test.ts": 12,
  "test/sandbox/data/tables-file.test.ts": 11,
  "test/e2e/host-model.test.ts": 10,
  "test/oracle/period-properties.test.ts": 10,
  "test/e2e/taskpane.test.ts": 9,
  "test/e2e/workbook-page.test.ts": 9,
  "test/taskpane/requirement-sets.test.ts": 9,
  "test/e2e/excel-standin.test.ts": 8,
  "test/e2e/idb-reopen.test.ts": 8,
  "test/e2e/why-and-changes.test.ts": 8,
  "test/e2e/cockpit-queue.test.ts": 7,
  "test/functions/tables-paths.test.ts": 7,
  "test/e2e/cockpit-analyst.test.ts": 6,
  "test/e2e/reenter-formulas.test.ts": 6,
  "test/reliability/hardening-3-limits.test.ts": 6,
  "test/taskpane/import-money-units.test.ts": 6,
  "test/taskpane/builder-choices.test.ts": 5,
  "test/e2e/csp.test.ts": 4,
  "test/e2e/key-binding.test.ts": 4,
  "test/functions/one-cell-arrays.test.ts": 4,
  "test/functions/warm-path.test.ts": 4,
  "test/reliability/hardening-3-types.test.ts": 4,
  "test/sandbox/filing-times.test.ts": 4,
  "test/client/results-day-morning.test.ts": 3,
  "test/functions/cells-paths.test.ts": 3,
  "test/functions/closed-workbook.test.ts": 3,
  "test/functions/differential.test.ts": 3,
  "test/functions/ja-headers.test.ts": 3,
  "test/functions/queue-order.test.ts": 3,
  "test/reliability/functions-fuzz.test.ts": 3,
  "test/reliability/hardening-3-time.test.ts": 3,
  "test/reliability/hardening.test.ts": 3,
  "test/reliability/sandbox-fuzz.test.ts": 3,
  "test/reliability/secret-hygiene.test.ts": 3,
  "test/sandbox/validation.test.ts": 3,
  "test/taskpane/builder-open-cell.test.ts": 3,
  "test/taskpane/builder-words.test.tsx": 3,
  "test/taskpane/cockpit-models.test.ts": 3,
  "test/taskpane/datasets.test.ts": 3,
  "test/taskpane/function-catalogue.test.ts": 3,
  "test/taskpane/pane-render.test.tsx": 3,
};

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const relative = (test) =>
      path.relative(test.context.config.rootDir, test.path).split(path.sep).join("/");
    // jest's cache where it has a duration (then it knows every suite of the last run), else the list.
    const seconds = (test) => {
      const cached = this.time(test);
      if (cached !== undefined) return cached / 1000;
      return KNOWN_SECONDS[relative(test)];
    };
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    return [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      if (failed !== 0) return failed;
      const sa = seconds(a);
      const sb = seconds(b);
      if (sa !== undefined && sb !== undefined && sa !== sb) return sb - sa;
      if (sa !== undefined && sb === undefined) return -1;
      if (sa === undefined && sb !== undefined) return 1;
      return size(b) - size(a);
    });
  }
}

module.exports = SlowFirstSequencer;
