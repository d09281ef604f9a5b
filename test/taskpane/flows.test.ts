// Import and refresh flows against the sandbox with a recording Excel side; the key never reaches the workbook.

import { sandboxClient } from "./sandbox-client";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import {
  rerunImport,
  runImport,
  uniqueName,
  type ImportExcel,
  type ImportProgress,
} from "../../taskpane/state/import-flow";
import { refreshAll, type RefreshDeps } from "../../taskpane/state/refresh-flow";
import type { ImportDefinition } from "../../taskpane/state/import-definition";
import type { TableData } from "../../taskpane/state/table-data";
import type { WriteTableOptions } from "../../taskpane/excel/write-table";

beforeAll(async () => {
  await sandboxClient().client.financials({ security_code: "7203" });
}, 120_000);

function recordingExcel(taken: string[] = []) {
  const writes: { table: TableData; options: WriteTableOptions }[] = [];
  const definitions: ImportDefinition[] = [];
  const excel: ImportExcel = {
    writeTable: async (table, options) => {
      writes.push({ table, options });
      options.onProgress?.(table.rows.length);
      return { name: options.name, sheet: "Sheet1", address: "A1:B2", rows: table.rows.length };
    },
    saveImportDefinition: async (def) => void definitions.push(def),
    existingTableNames: async () => new Set(taken),
  };
  return { excel, writes, definitions };
}

test("runImport: fetches, writes with the attribution caption, stores a definition without the key", async () => {
  const { client } = sandboxClient();
  const rec = recordingExcel(["Kaisha_valuations_7203"]);
  const progress: ImportProgress[] = [];
  const written = await runImport(
    { dataset: "valuations", params: { security_code: "7203", years: "10", unit: "million_jpy" } },
    {
      client,
      excel: rec.excel,
      lang: "ja",
      onProgress: (p) => progress.push(p),
      now: () => new Date("2026-11-21T00:00:00Z"),
    },
  );
  expect(written.name).toBe("Kaisha_valuations_7203_2");
  expect(rec.writes[0]?.options.caption).toMatch(/^出典: /);
  expect(rec.writes[0]?.options.caption).toContain("金額単位: 百万円");
  expect(rec.definitions).toEqual([
    {
      v: 1,
      dataset: "valuations",
      params: { security_code: "7203", years: "10", unit: "million_jpy" },
      lang: "ja",
      tableName: "Kaisha_valuations_7203_2",
      createdAt: "2026-11-21T00:00:00.000Z",
    },
  ]);
  expect(JSON.stringify(rec.definitions)).not.toContain(DEMO_API_KEY);
  expect(progress.some((p) => p.phase === "write")).toBe(true);
});

test("runImport: a cancelled fetch writes nothing", async () => {
  expect.assertions(2);
  const { client } = sandboxClient();
  const rec = recordingExcel();
  const ac = new AbortController();
  ac.abort();
  await expect(
    runImport(
      { dataset: "prices", params: { code: "7203", from: "2020-01-01" } },
      { client, excel: rec.excel, lang: "en", signal: ac.signal },
    ),
  ).rejects.toThrow();
  expect(rec.writes).toHaveLength(0);
});

test("runImport: an empty answer writes nothing and says there is no data", async () => {
  expect.assertions(3);
  const { client } = sandboxClient();
  const rec = recordingExcel();
  try {
    await runImport(
      { dataset: "prices", params: { code: "7203", from: "2005-01-01", to: "2005-01-02" } },
      { client, excel: rec.excel, lang: "ja" },
    );
  } catch (err) {
    expect((err as { code?: string }).code).toBe("no_results");
  }
  expect(rec.writes).toHaveLength(0);
  expect(rec.definitions).toHaveLength(0);
});

test("runImport: Cancel after the first page stops paging and writes nothing", async () => {
  expect.assertions(3);
  const { client, requests } = sandboxClient();
  const rec = recordingExcel();
  const ac = new AbortController();
  try {
    await runImport(
      { dataset: "prices", params: { code: "7203", from: "2015-01-01" } },
      {
        client,
        excel: rec.excel,
        lang: "en",
        signal: ac.signal,
        onProgress: (p) => {
          if (p.phase === "fetch" && p.rows > 0) ac.abort();
        },
      },
    );
  } catch (err) {
    expect(err).toBeDefined();
  }
  expect(requests().filter((r) => r.includes("/prices"))).toHaveLength(1);
  expect(rec.writes).toHaveLength(0);
});

test("uniqueName adds a suffix only when taken", () => {
  expect(uniqueName("A", new Set())).toBe("A");
  expect(uniqueName("A", new Set(["A", "A_2"]))).toBe("A_3");
});

test("refreshAll: invalidates, recalculates, re-runs live imports in place and reports failures", async () => {
  const calls: string[] = [];
  const defs: ImportDefinition[] = ["T1", "T2", "Gone"].map((tableName) => ({
    v: 1,
    dataset: "prices",
    params: { code: "7203" },
    lang: "ja",
    tableName,
    createdAt: "x",
  }));
  const deps: RefreshDeps = {
    invalidateAll: () => calls.push("invalidate"),
    scanKaishaCells: async () =>
      Array.from({ length: 12 }, (_, i) => ({
        sheet: "S",
        address: `A${i + 1}`,
        formula: '=KAISHA.FINANCIAL(7203,"sales",0)',
        value: 1,
      })),
    recalculateAll: async () => void calls.push("recalculate"),
    readImportDefinitions: async () => defs,
    existingTableNames: async () => new Set(["T1", "T2"]),
    refreshImport: async (def) => {
      calls.push(`import ${def.tableName}`);
      if (def.tableName === "T2") throw new Error("boom");
    },
    requestsSent: () => 0,
    clientIdle: () => true,
    sleep: async () => undefined,
  };
  const summary = await refreshAll(deps, { formulas: true });
  expect(calls).toEqual(["invalidate", "recalculate", "import T1", "import T2"]);
  expect(summary.formulas).toBe(12);
  expect(summary.imports).toBe(2);
  expect(summary.refreshed).toBe(1);
  expect(summary.failures.map((f) => f.table)).toEqual(["T2"]);
});

test("refresh of an import replaces its table in place with fresh data", async () => {
  const { client, requests } = sandboxClient();
  const rec = recordingExcel();
  await runImport(
    {
      dataset: "rankings",
      params: { metric: "gainers", limit: "10" },
      replaceTable: "Kaisha_rankings_gainers",
    },
    { client, excel: rec.excel, lang: "en" },
  );
  expect(rec.writes[0]?.options).toMatchObject({ name: "Kaisha_rankings_gainers", replace: true });
  expect(requests()).toEqual(["/v1/rankings/gainers?limit=10"]);
});

test("refresh of an import made with Japanese headers writes the same Japanese headers again", async () => {
  const { client } = sandboxClient();
  const rec = recordingExcel();
  await runImport(
    { dataset: "valuations", params: { security_code: "7203", years: "5" } },
    { client, excel: rec.excel, lang: "ja", headers: "ja" },
  );
  const def = rec.definitions[0];
  if (!def) throw new Error("no definition stored");
  expect(def.headers).toBe("ja");
  // The pane is in English now and its header setting is back to keys: the table still keeps its own.
  await rerunImport(def, { client, excel: rec.excel, lang: "en" });
  const first = rec.writes[0]?.table.columns.map((c) => c.header);
  const again = rec.writes[1]?.table.columns.map((c) => c.header);
  expect(first).toContain("決算期");
  expect(again).toEqual(first);
  expect(rec.writes[1]?.options).toMatchObject({ name: def.tableName, replace: true });
  expect(rec.definitions[1]?.headers).toBe("ja");
});
