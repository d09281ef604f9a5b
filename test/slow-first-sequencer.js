// Jest's order of suites for `npm test`: the longest first, so the workers end together, with the
// browser suites spread out: none before the e2e build is ready, and never all workers at once (a
// browser suite's worker mostly waits on its pages, so a core would idle). jest's own sequencer
// orders by the durations its cache recorded in an earlier run; a fresh clone (CI) has no cache and
// got the order of file sizes, which started the slowest suites last.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;
const { maxWorkers } = require("../jest.config.js");

/**
 * Seconds each of the slowest suites takes: the order for a suite jest's cache does not know. Unit
 * suites by their CPU in a `jest --selectProjects unit` run (arguments.test.ts also waits 8 s on a
 * slow sandbox; generated-files.test.ts works in a child process), browser suites by half their
 * wall in a fresh-clone `npm test` (their worker mostly waits on the page, which renders slower
 * beside the unit suites, as those run slower than alone; the morning-open suites also wait out
 * the client's pacing, 60 requests a minute, in real time). A suite missing
 * here counts as UNKNOWN_SECONDS and is ordered by file size after them; refresh the list when a
 * suite becomes one of the slow ones.
 */
const KNOWN_SECONDS = {
  "test/e2e/morning-open-desktop.test.ts": 45,
  "test/e2e/analyst-sheets.test.ts": 39,
  "test/e2e/morning-open-web.test.ts": 36,
  "test/e2e/cockpit-pane.test.ts": 26,
  "test/e2e/taskpane.test.ts": 21,
  "test/e2e/cockpit-analyst.test.ts": 17,
  "test/contract/generated-files.test.ts": 15,
  "test/e2e/hostile-writes.test.ts": 14,
  "test/e2e/preview.test.ts": 14,
  "test/e2e/excel-standin.test.ts": 13,
  "test/sandbox/data/tables-file.test.ts": 12,
  "test/e2e/why-and-changes.test.ts": 12,
  "test/e2e/host-model.test.ts": 11,
  "test/functions/arguments.test.ts": 10,
  "test/e2e/pane-formulas.test.ts": 10,
  "test/e2e/cockpit-queue.test.ts": 10,
  "test/taskpane/requirement-sets.test.ts": 9,
  "test/e2e/workbook-page.test.ts": 7,
  "test/e2e/idb-reopen.test.ts": 6,
  "test/functions/tables-paths.test.ts": 5,
  "test/reliability/hardening-3-limits.test.ts": 5,
  "test/e2e/build.test.ts": 5,
  "test/functions/percent-scale.test.ts": 4,
  "test/e2e/csp.test.ts": 4,
  "test/e2e/key-binding.test.ts": 4,
  "test/e2e/reenter-formulas.test.ts": 4,
  "test/oracle/period-properties.test.ts": 3,
  "test/taskpane/revalidation-controls.test.tsx": 3,
  "test/taskpane/changes/views-render.test.tsx": 3,
  "test/sandbox/data/dataset.test.ts": 3,
};
/** What a suite missing from KNOWN_SECONDS (and jest's cache) counts as: most take under 2 s. */
const UNKNOWN_SECONDS = 1;
/**
 * When the first browser suite may start, in the seconds the list counts: the build takes about
 * 45 s of a fresh clone's wall beside the unit suites (which run below it, test/unit-priority.ts,
 * and slower than the list says). A browser suite waits for the build first
 * (test/e2e/build-ready.ts), holding its worker, but the build and the other workers keep the
 * cores busy meanwhile, while one that starts late lengthens the run's longest chain.
 */
const BUILD_SECONDS = 10;
/** Browser suites at once: every worker but one, which keeps a core busy with unit suites. */
const BROWSER_SLOTS = Math.max(1, maxWorkers - 1);

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
    return spread(sorted, (test) => seconds(test) ?? UNKNOWN_SECONDS);
  }
}

/**
 * `sorted` in the order jest's workers would take them so that browser suites start once the
 * build is ready and at most BROWSER_SLOTS run at once: jest hands the next suite of the list to
 * whichever worker is free first, so the list is written by playing that out with each suite's
 * seconds (an estimate; a suite that runs longer only shifts the rest).
 */
function spread(sorted, secondsOf) {
  const browser = (test) => test.context.config.displayName?.name === "e2e";
  const units = sorted.filter((t) => !browser(t));
  const browsers = sorted.filter(browser);
  const freeAt = Array.from({ length: maxWorkers }, () => 0);
  /** End times of the browser suites handed out. */
  const browserEnds = [];
  const order = [];
  while (units.length > 0 || browsers.length > 0) {
    const now = Math.min(...freeAt);
    const worker = freeAt.indexOf(now);
    const running = browserEnds.filter((end) => end > now).length;
    const browserTurn =
      browsers.length > 0 &&
      (units.length === 0 || (now >= BUILD_SECONDS && running < BROWSER_SLOTS));
    const test = browserTurn ? browsers.shift() : units.shift();
    const end = now + secondsOf(test);
    if (browserTurn) browserEnds.push(end);
    freeAt[worker] = end;
    order.push(test);
  }
  return order;
}

module.exports = SlowFirstSequencer;
