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
function difference(a: unknown, b: unknown): string {
  const where = firstDifference(a, b);
  return where === undefined ? "" : `$${where.reverse().join("")}`;
}

/**
 * The path to the first difference, innermost part first, or undefined. The path is only spelled
 * out on the way back from a difference: the walk visits every row of every table, and building
 * each row's path text cost more than comparing it.
 */
function firstDifference(a: unknown, b: unknown): string[] | undefined {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null)
    return Object.is(a, b) ? undefined : [];
  const tag = Object.prototype.toString.call(a);
  if (tag !== Object.prototype.toString.call(b)) return [` (${tag})`];
  if (tag === "[object Map]" || tag === "[object Set]") {
    const x = [...(a as Map<unknown, unknown>).entries()];
    const y = [...(b as Map<unknown, unknown>).entries()];
    return firstDifference(x, y);
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length || keysA.some((k, i) => k !== keysB[i])) return [" (keys)"];
  for (const k of keysA) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
    if (d !== undefined) {
      d.push(`.${k}`);
      return d;
    }
  }
  return undefined;
}

/** The dataset's data, without its one function. */
function tablesOf(dataset: Dataset): DatasetTables {
  const { screeningMetrics: _, ...tables } = dataset;
  return tables;
}

afterEach(() => forgetDataset());

/** The tables without their two big ones (prices, disclosures): quick to write and read. */
function small(): DatasetTables {
  return { ...fresh(), prices: new Map(), disclosures: [] };
}

/** Runs `check` with getDataset reading a file of `tables` of its own (the run's file named again after). */
function withOwnFile(tables: DatasetTables, check: () => void): void {
  const saved = process.env[TABLES_FILE_VARIABLE];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-tables-test-"));
  try {
    writeTablesFile(path.join(dir, "own.bin"), tables);
    forgetDataset();
    check();
  } finally {
    if (saved === undefined) delete process.env[TABLES_FILE_VARIABLE];
    else process.env[TABLES_FILE_VARIABLE] = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

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
    // It says where: the Map's second entry, its value, the value's first element.
    const changed = new Map([
      ["a", [1, 2]],
      ["b", [4]],
    ]);
    expect(difference(base, { m: changed, x: 0 })).toBe("$.m.1.1.0");
    expect(difference(base, { m: base.m, x: 0, y: undefined })).toBe("$ (keys)");
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
      // and disclosures (most of the file's bytes, which this does not read) it is written and
      // read in a blink.
      writeTablesFile(path.join(dir, "one.bin"), {
        ...tables,
        securities: tables.securities.slice(0, 1),
        prices: new Map(),
        disclosures: [],
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
    withOwnFile(small(), () => {
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
  });

  it("the process keeps what it read: another suite's module registry gets the same tables without deserializing them again, and none can change them", () => {
    withOwnFile(small(), () => {
      const deserialize = jest.spyOn(v8, "deserialize");
      try {
        const securities = getDataset().securities;
        const corporations = getDataset().corporations;
        expect(deserialize).toHaveBeenCalledTimes(2);
        let again: Dataset | undefined;
        jest.isolateModules(() => {
          const data = require("../../../sandbox/data") as typeof import("../../../sandbox/data");
          again = data.getDataset();
        });
        expect(again?.securities).toBe(securities);
        expect(again?.corporations).toBe(corporations);
        expect(deserialize).toHaveBeenCalledTimes(2);
        // A change would reach every later suite of the process: it throws where it is made (a
        // TypeError of Node's realm, where v8.deserialize made the rows: matched by its message).
        const first = securities[0] as { name: string };
        expect(() => securities.push(securities[0] as (typeof securities)[number])).toThrow(
          /not extensible/,
        );
        expect(() => {
          first.name = "changed";
        }).toThrow(/read only/);
        expect(() => corporations.delete([...corporations.keys()][0] as string)).toThrow(
          /cannot change/,
        );
        expect(() => corporations.clear()).toThrow(/cannot change/);
        expect(corporations.size).toBeGreaterThan(0);
      } finally {
        deserialize.mockRestore();
      }
    });
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
