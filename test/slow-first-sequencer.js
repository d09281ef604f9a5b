// Jest's order of suites: the longest first, so the workers of `npm test` end together, except that
// the browser suites wait behind enough unit work to fill the workers while the e2e build runs.
// jest's own sequencer orders by the durations its cache recorded in an earlier run; a fresh clone
// (CI) has no cache and got the order of file sizes, which started the slowest suites last.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/**
 * Seconds each of the slowest suites takes: the order for a suite jest's cache does not know. Unit
 * suites by their wall in one `jest --selectProjects unit --maxWorkers=1` run on the idle machine
 * (their CPU; arguments.test.ts also waits 8 s on a slow sandbox), browser suites by their wall run
 * alone (their worker mostly waits on the page: morning-open waits out the client's pacing, 60
 * requests a minute, in real time; the generated-files suite's work is in its child process). A
 * suite missing here is ordered by file size after them; refresh the list when a suite becomes one
 * of the slow ones.
 */
const KNOWN_SECONDS = {
  "test/e2e/morning-open-desktop.test.ts": 55,
  "test/e2e/morning-open-web.test.ts": 45,
  "test/e2e/cockpit-pane.test.ts": 30,
  "test/e2e/pane-formulas.test.ts": 23,
  "test/e2e/hostile-writes.test.ts": 16,
  "test/contract/generated-files.test.ts": 15,
  "test/e2e/analyst-sheets.test.ts": 13,
  "test/e2e/preview.test.ts": 13,
  "test/e2e/cockpit-queue.test.ts": 12,
  "test/e2e/cockpit-analyst.test.ts": 11,
  "test/e2e/host-model.test.ts": 10,
  "test/e2e/workbook-page.test.ts": 10,
  "test/functions/arguments.test.ts": 10,
  "test/sandbox/data/tables-file.test.ts": 9,
  "test/e2e/taskpane.test.ts": 9,
  "test/e2e/excel-standin.test.ts": 8,
  "test/e2e/idb-reopen.test.ts": 8,
  "test/e2e/why-and-changes.test.ts": 8,
  "test/oracle/period-properties.test.ts": 7,
  "test/e2e/reenter-formulas.test.ts": 6,
  "test/e2e/build.test.ts": 5,
  "test/taskpane/requirement-sets.test.ts": 5,
  "test/functions/tables-paths.test.ts": 4,
  "test/taskpane/import-money-units.test.ts": 4,
  "test/reliability/hardening-3-limits.test.ts": 4,
  "test/e2e/csp.test.ts": 4,
  "test/e2e/key-binding.test.ts": 4,
  "test/functions/percent-scale.test.ts": 4,
  "test/taskpane/cockpit-models.test.ts": 3,
  "test/client/results-day-morning.test.ts": 3,
  "test/functions/cells-paths.test.ts": 3,
  "test/functions/queue-order.test.ts": 3,
  "test/sandbox/data/dataset.test.ts": 3,
  "test/reliability/hardening.test.ts": 3,
  "test/reliability/hardening-3-types.test.ts": 3,
  "test/functions/prices-latest.test.ts": 3,
  "test/taskpane/builder-open-cell.test.ts": 3,
};

/**
 * Seconds of unit suites (as KNOWN_SECONDS counts them) handed out before the first browser suite.
 * The e2e project's globalSetup starts the build without waiting for it and each browser suite
 * waits for it first (test/e2e/build-ready.ts): a browser suite at the head of the line would hold
 * its worker idle through the build, which a fresh clone makes in about 30 s beside the unit suites
 * (three workers, each unit suite slower beside the build than KNOWN_SECONDS says).
 */
const UNIT_LEAD_SECONDS = 60;

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
    const sorted = [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      if (failed !== 0) return failed;
      const sa = seconds(a);
      const sb = seconds(b);
      if (sa !== undefined && sb !== undefined && sa !== sb) return sb - sa;
      if (sa !== undefined && sb === undefined) return -1;
      if (sa === undefined && sb !== undefined) return 1;
      return size(b) - size(a);
    });
    const lead = [];
    const rest = [];
    let leadSeconds = 0;
    for (const test of sorted) {
      if (leadSeconds < UNIT_LEAD_SECONDS && test.context.config.displayName?.name !== "e2e") {
        lead.push(test);
        leadSeconds += seconds(test) ?? 1;
      } else rest.push(test);
    }
    return [...lead, ...rest];
  }
}

module.exports = SlowFirstSequencer;
