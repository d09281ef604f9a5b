// The dataset tables file (written once per run by test/sandbox-tables.ts) holds exactly what a
// fresh generation makes, and getDataset() answers from it; the generation is deterministic (the
// file against a generation here, and two generations in this process).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import {
  forgetDataset,
  generateTables,
  getDataset,
  type Dataset,
  type DatasetTables,
} from "../../../sandbox/data";
import { metricsFromTables } from "../../../sandbox/data/screening-metrics";
import {
  readTablesFile,
  TABLES_FILE_VARIABLE,
  writeTablesFile,
} from "../../../sandbox/data/tables-file";

/** One fresh generation for the whole file (about 3 s). */
let freshTables: DatasetTables | undefined;
function fresh(): DatasetTables {
  freshTables ??= generateTables();
  return freshTables;
}

/**
 * Where two values first differ ("" when they hold the same data): maps and sets in order, arrays,
 * own keys (an undefined-valued key counts), numbers by Object.is (-0, NaN). Not jest's toEqual:
 * the file's tables come from v8.deserialize in Node's own realm, and toEqual treats a Map of one
 * realm as unlike a Map of another. Byte comparison fails too: v8 writes a number as an integer or
 * a double depending on how the engine happened to hold it.
 */
function difference(a: unknown, b: unknown, at = "$"): string {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null)
    return Object.is(a, b) ? "" : at;
  const tag = Object.prototype.toString.call(a);
  if (tag !== Object.prototype.toString.call(b)) return `${at} (${tag})`;
  if (tag === "[object Map]" || tag === "[object Set]") {
    const x = [...(a as Map<unknown, unknown>).entries()];
    const y = [...(b as Map<unknown, unknown>).entries()];
    return difference(x, y, at);
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.join("\0") !== keysB.join("\0")) return `${at} (keys)`;
  for (const k of keysA) {
    const d = difference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      `${at}.${k}`,
    );
    if (d !== "") return d;
  }
  return "";
}

/** The dataset's data, without its one function. */
function tablesOf(dataset: Dataset): DatasetTables {
  const { screeningMetrics: _, ...tables } = dataset;
  return tables;
}

afterEach(() => forgetDataset());

describe("the sandbox tables file", () => {
  it("the comparison below notices one changed number, a -0, an undefined key and a Map's order", () => {
    const base = {
      m: new Map([
        ["a", [1, 2]],
        ["b", [3]],
      ]),
      x: 0,
    };
    expect(
      difference(base, {
        m: new Map([
          ["a", [1, 2]],
          ["b", [3]],
        ]),
        x: 0,
      }),
    ).toBe("");
    expect(
      difference(base, {
        m: new Map([
          ["a", [1, 2]],
          ["b", [4]],
        ]),
        x: 0,
      }),
    ).not.toBe("");
    expect(
      difference(base, {
        m: new Map([
          ["b", [3]],
          ["a", [1, 2]],
        ]),
        x: 0,
      }),
    ).not.toBe("");
    expect(difference(base, { m: base.m, x: -0 })).not.toBe("");
    expect(difference(base, { m: base.m, x: 0, y: undefined })).not.toBe("");
    expect(difference([1], new Set([1]))).not.toBe("");
  });

  it("this run's file holds the same data as a fresh generation", () => {
    expect(process.env[TABLES_FILE_VARIABLE]).toEqual(expect.stringMatching(/\.bin$/));
    const fromFile = readTablesFile();
    expect(fromFile).toBeDefined();
    // v8.serialize keeps what JSON would lose (undefined, -0, NaN, key order, Map order).
    expect(difference(fromFile, fresh())).toBe("");
  });

  it("getDataset answers from the file, not from a new generation", () => {
    const saved = process.env[TABLES_FILE_VARIABLE];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-tables-test-"));
    try {
      const tables = fresh();
      // A marker only the file holds: one security instead of the whole list. Without the prices
      // (most of the file's bytes, which this does not read) it is written and read in a blink.
      writeTablesFile(path.join(dir, "one.bin"), {
        ...tables,
        securities: tables.securities.slice(0, 1),
        prices: new Map(),
      });
      forgetDataset();
      expect(getDataset().securities.map((s) => s.code)).toEqual([tables.securities[0]?.code]);
    } finally {
      if (saved === undefined) delete process.env[TABLES_FILE_VARIABLE];
      else process.env[TABLES_FILE_VARIABLE] = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a table is read from the file when first used, and once: a suite pays only for what it reads", () => {
    const deserialize = jest.spyOn(v8, "deserialize");
    try {
      const dataset = getDataset();
      expect(deserialize).not.toHaveBeenCalled();
      const securities = dataset.securities;
      expect(securities.length).toBeGreaterThan(0);
      expect(dataset.securities).toBe(securities);
      expect(deserialize).toHaveBeenCalledTimes(1);
    } finally {
      deserialize.mockRestore();
    }
  });

  // With fresh() a second generation in this process: the sandbox data is deterministic.
  it("without a file named, getDataset generates the tables itself, the same as every generation", () => {
    const saved = process.env[TABLES_FILE_VARIABLE];
    delete process.env[TABLES_FILE_VARIABLE];
    try {
      expect(readTablesFile()).toBeUndefined();
      forgetDataset();
      expect(difference(tablesOf(getDataset()), fresh())).toBe("");
    } finally {
      process.env[TABLES_FILE_VARIABLE] = saved;
    }
  });

  it("getDataset is memoized; screening metrics over the file's tables equal a fresh dataset's, for every security", () => {
    const cached = getDataset();
    expect(getDataset()).toBe(cached);
    for (const { code } of fresh().securities) {
      for (const date of ["2008-03-31", "2019-12-30", "2026-11-19"]) {
        expect([code, date, cached.screeningMetrics(code, date)]).toEqual([
          code,
          date,
          metricsFromTables(fresh(), code, date),
        ]);
      }
    }
  });
});
