// Jest globalSetup (both projects): the sandbox's dataset tables generated once per run and written
// to a file every test process reads, instead of each suite that starts a sandbox generating them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateTables } from "../sandbox/data";
import { TABLES_FILE_VARIABLE, writeTablesFile } from "../sandbox/data/tables-file";

/** This run's file: one per jest process, so parallel runs never share or delete another's. */
const FILE = path.join(os.tmpdir(), `kaisha-sandbox-tables-${process.pid}.bin`);

/** Writes the tables unless this run already has (the other project's globalSetup). */
export default function writeSandboxTables(): void {
  if (process.env[TABLES_FILE_VARIABLE] === FILE && fs.existsSync(FILE)) return;
  writeTablesFile(FILE, generateTables());
}

/** Jest globalTeardown: removes this run's file. */
export function removeSandboxTables(): void {
  fs.rmSync(FILE, { force: true });
  delete process.env[TABLES_FILE_VARIABLE];
}
