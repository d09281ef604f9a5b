// The dataset's tables in a file: generated once (the test suite's globalSetup), then read by every
// process that would otherwise generate the same tables again (about 3 s of CPU each).
import fs from "node:fs";
import { types } from "node:util";
import v8 from "node:v8";
import type { DatasetTables } from "./model";

/**
 * Names a file written by writeTablesFile in this run; getDataset() reads it instead of generating.
 * Unset (the default, npm start, the bench), the dataset is generated.
 */
export const TABLES_FILE_VARIABLE = "KAISHA_SANDBOX_TABLES";

/** Where each table's bytes lie in the file: name -> [offset, length], after the header. */
type Index = Record<string, [number, number]>;

/** Where the process keeps the tables it has read (processTables). */
const PROCESS_TABLES = Symbol.for("kaisha.sandbox-tables");

/**
 * The tables this process has read, by file (its path and time) and name. A module-level cache
 * would serve one jest suite only (each test file gets module registries of its own), while core
 * modules are the process's: kept on the v8 module object, a jest worker deserializes each table
 * once for all its suites instead of once per suite (over a second of CPU and its garbage each).
 */
function processTables(): Map<string, unknown> {
  const holder = v8 as unknown as Record<symbol, Map<string, unknown> | undefined>;
  holder[PROCESS_TABLES] ??= new Map();
  return holder[PROCESS_TABLES];
}

/** Maps and Sets that refuse to change (readOnly). */
function refuse(): never {
  throw new TypeError("The sandbox's tables are shared by the process: they cannot change.");
}

/**
 * Freezes a table and everything in it; its Maps and Sets refuse set, add, delete and clear. A
 * table the process shares must not carry one suite's change into the next, so a change throws
 * where it is made instead.
 */
function readOnly(table: unknown): unknown {
  const pending: unknown[] = [table];
  for (
    let value = pending.pop();
    value !== undefined || pending.length > 0;
    value = pending.pop()
  ) {
    if (typeof value !== "object" || value === null || Object.isFrozen(value)) continue;
    // util.types, not instanceof: v8.deserialize makes Node's own Maps, of another realm than a
    // jest suite's.
    if (types.isMap(value) || types.isSet(value)) {
      for (const method of ["set", "add", "delete", "clear"])
        Object.defineProperty(value, method, { value: refuse });
      for (const [k, v] of value.entries()) pending.push(k, v);
    } else for (const v of Object.values(value)) pending.push(v);
    Object.freeze(value);
  }
  return table;
}

/**
 * Writes `tables` with v8.serialize (maps, shared arrays and undefined survive as they are, unlike
 * JSON) and names the file for this process and its children. Each table is serialized on its own
 * behind an index (a 4-byte length, then the index as JSON), so a reader deserializes only the
 * tables it uses: the whole file took about 2-3 s of CPU per test suite, most of it tables (the
 * disclosures, the prices) that suite never asked for.
 */
export function writeTablesFile(file: string, tables: DatasetTables): void {
  const index: Index = {};
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [name, value] of Object.entries(tables)) {
    const bytes = v8.serialize(value);
    index[name] = [offset, bytes.length];
    parts.push(bytes);
    offset += bytes.length;
  }
  const header = Buffer.from(JSON.stringify(index));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  fs.writeFileSync(file, Buffer.concat([length, header, ...parts]));
  process.env[TABLES_FILE_VARIABLE] = file;
}

/**
 * The tables from the file TABLES_FILE_VARIABLE names, or undefined when it names none. Each table
 * is read and deserialized when first used (an enumerable getter, so spreading or walking the
 * object reads them all), then kept for the whole process, read-only (processTables).
 */
export function readTablesFile(): DatasetTables | undefined {
  const file = process.env[TABLES_FILE_VARIABLE];
  if (!file) return undefined;
  const read = (offset: number, length: number): Buffer => {
    const bytes = Buffer.alloc(length);
    const fd = fs.openSync(file, "r");
    try {
      for (let done = 0; done < length;) {
        const got = fs.readSync(fd, bytes, done, length - done, offset + done);
        if (got === 0)
          throw new Error(`${file}: ends before its tables (written by another version?)`);
        done += got;
      }
    } finally {
      fs.closeSync(fd);
    }
    return bytes;
  };
  const headerLength = read(0, 4).readUInt32LE(0);
  const index = JSON.parse(read(4, headerLength).toString("utf8")) as Index;
  const start = 4 + headerLength;
  const tables: Record<string, unknown> = {};
  const loaded = processTables();
  const version = `${file}|${fs.statSync(file).mtimeMs}`;
  for (const [name, [offset, length]] of Object.entries(index)) {
    const key = `${version}|${name}`;
    Object.defineProperty(tables, name, {
      enumerable: true,
      get() {
        if (!loaded.has(key))
          loaded.set(key, readOnly(v8.deserialize(read(start + offset, length))));
        return loaded.get(key);
      },
    });
  }
  return tables as unknown as DatasetTables;
}
