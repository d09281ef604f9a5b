// The e2e build for the bench's Chromium runs, in a process of its own (bench/run.ts buildForChromium).
//
// A script file, not `ts-node -e`: ts-node puts `-e <code>` in process.execArgv, and the minifier's
// worker processes (jest-worker forks with the parent's execArgv) then ran the code again, each
// starting another build.

import { buildForE2e } from "../test/e2e/global-setup";

buildForE2e().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
