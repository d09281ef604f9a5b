// The e2e project's globalTeardown: closes the run's Chromium and removes the sandbox tables file.
import { removeSandboxTables } from "../sandbox-tables";
import { closeSharedBrowser } from "./browser";

export default async function globalTeardown(): Promise<void> {
  await closeSharedBrowser();
  removeSandboxTables();
}
