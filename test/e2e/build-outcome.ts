// The e2e build's outcome across jest's processes: globalSetup starts the build without waiting for
// it (the unit suites run meanwhile) and every browser suite waits here for the outcome file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * The outcome file of this run's build. globalSetup sets it (npm test's test/checks.ts may set it
 * first, to report the build); jest's test processes inherit it with the rest of the environment.
 */
export const OUTCOME_VARIABLE = "KAISHA_E2E_BUILD_OUTCOME";
/**
 * Longest wait for the build: a fresh clone's full build takes about 30 s alone and under a minute
 * beside the unit suites; a hung one must fail the suites with a message, not hold jest forever.
 * @unit ms
 */
export const BUILD_WAIT_MS = 10 * 60_000;
/** How often a waiting suite looks for the outcome file. @unit ms */
const POLL_MS = 200;

export interface BuildOutcome {
  ok: boolean;
  seconds: number;
  /** webpack's errors when the build failed; empty when it passed. */
  message: string;
}

/** The build globalSetup started in this process (globalTeardown awaits it), and the directory it made. */
let running: Promise<void> | undefined;
let ownDir: string | undefined;

/**
 * Starts `build` and returns at once; its outcome lands in the file `OUTCOME_VARIABLE` names
 * (written whole, then renamed: a waiting suite never reads half of it).
 */
export function startBuild(build: () => Promise<void>): void {
  let file = process.env[OUTCOME_VARIABLE];
  if (file === undefined) {
    ownDir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-e2e-build-"));
    file = path.join(ownDir, "outcome.json");
    process.env[OUTCOME_VARIABLE] = file;
  }
  const target = file;
  fs.rmSync(target, { force: true });
  const started = Date.now();
  const settle = (ok: boolean, message: string): void => {
    const outcome: BuildOutcome = { ok, seconds: (Date.now() - started) / 1000, message };
    fs.writeFileSync(`${target}.part`, JSON.stringify(outcome));
    fs.renameSync(`${target}.part`, target);
  };
  running = build().then(
    () => settle(true, ""),
    (err: unknown) => settle(false, err instanceof Error ? err.message : String(err)),
  );
}

/** Resolves once the build this process started has settled (globalTeardown), and tidies up. */
export async function buildSettled(): Promise<void> {
  await running;
  running = undefined;
  if (ownDir !== undefined) {
    fs.rmSync(ownDir, { recursive: true, force: true });
    delete process.env[OUTCOME_VARIABLE];
    ownDir = undefined;
  }
}

/** The outcome in `file`, or undefined while there is none (test/checks.ts after jest). */
export function readOutcome(file: string): BuildOutcome | undefined {
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, "utf8")) as BuildOutcome;
}

/**
 * Waits for this run's build: resolves when it passed, throws webpack's errors when it failed. A
 * process that no globalSetup started (bench/browser-run.ts) has no build to wait for.
 */
export async function waitForBuild(): Promise<void> {
  const file = process.env[OUTCOME_VARIABLE];
  if (file === undefined) return;
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    const outcome = readOutcome(file);
    if (outcome?.ok) return;
    if (outcome !== undefined)
      throw new Error(`The e2e build failed, so no browser suite can run:\n${outcome.message}`);
    if (Date.now() > deadline)
      throw new Error(`The e2e build did not finish within ${BUILD_WAIT_MS / 60_000} min.`);
    // node:timers' sleep: a suite's fake timers (jest.useFakeTimers) do not hold it.
    await sleep(POLL_MS);
  }
}
