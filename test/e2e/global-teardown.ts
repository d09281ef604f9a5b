// The e2e project's globalTeardown: waits out the build, closes the run's Chromium and removes the
// sandbox tables file.
import { removeSandboxTables } from "../sandbox-tables";
import { closeSharedBrowser } from "./browser";
import { buildSettled } from "./build-outcome";

export default async function globalTeardown(): Promise<void> {
  // A run whose browser suites were all filtered out (-t) may end before webpack does.
  await buildSettled();
  await closeSharedBrowser();
  removeSandboxTables();
}
