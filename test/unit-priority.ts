// Each unit suite's process steps a little below the e2e build and the browser (jest's setupFiles):
// the build and then the browser suites' pages are the run's longest chain, and the unit suites fill
// whatever CPU they leave, instead of taking an equal share of it from them.
import os from "node:os";

/**
 * The nice value a unit suite's process runs at (jest's main process, which builds, and Chromium at
 * 0; npm test's checks at 10, test/checks.ts). Only ever raised: lowering it needs privileges.
 */
const UNIT_PRIORITY = 4;

try {
  if (os.getPriority() < UNIT_PRIORITY) os.setPriority(UNIT_PRIORITY);
} catch {
  // A system that refuses only leaves the suite at the build's priority.
}
