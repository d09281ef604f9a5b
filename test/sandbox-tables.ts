// Jest globalSetup (both projects): the sandbox's dataset tables generated once per run and written
// to a file every test process reads, instead of each suite that starts a sandbox generating them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateTables } from "../sandbox/data";
import { TABLES_FILE_VARIABLE, writeTablesFile } from "../sandbox/data/tables-file";

const PREFIX = "kaisha-sandbox-tables-";
/** This run's file: one per jest process, so parallel runs never share or delete another's. */
const FILE = path.join(os.tmpdir(), `${PREFIX}${process.pid}.bin`);

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Files of runs that ended without their globalTeardown (interrupted): about 100 MB each. */
function removeAbandoned(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(PREFIX) || !name.endsWith(".bin")) continue;
    const pid = Number(name.slice(PREFIX.length, -".bin".length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !running(pid))
      fs.rmSync(path.join(os.tmpdir(), name), { force: true });
  }
}

/** Writes the tables unless this run already has (the other project's globalSetup). */
export default function writeSandboxTables(): void {
  if (process.env[TABLES_FILE_VARIABLE] === FILE && fs.existsSync(FILE)) return;
  removeAbandoned();
  writeTablesFile(FILE, generateTables());
}

/** Jest globalTeardown: removes this run's file. */
export function removeSandboxTables(): void {
  fs.rmSync(FILE, { force: true });
  delete process.env[TABLES_FILE_VARIABLE];
}
