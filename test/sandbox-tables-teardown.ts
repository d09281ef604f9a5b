// Jest globalTeardown (both projects): removes the run's sandbox tables file (test/sandbox-tables.ts).
import { removeSandboxTables } from "./sandbox-tables";

export default removeSandboxTables;
