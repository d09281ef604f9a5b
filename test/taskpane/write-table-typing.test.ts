// writeTable over the Excel stand-in: the analyst types between the import's batches; their entries are never written over.

import {
  installExcelStandIn,
  uninstallExcelStandIn,
  type StandInHooks,
} from "./excel-standin-node";
import { TypedDuringImportError } from "../../taskpane/excel/import-guard";
import { writeTable, type WriteTableOptions } from "../../taskpane/excel/write-table";
import { errorText } from "../../taskpane/error-text";
import { translator } from "../../taskpane/i18n/messages";
import { shapeTable, type TableData } from "../../taskpane/state/table-data";
import { attribution, pricesTable } from "./prices-table-fixture";

afterEach(uninstallExcelStandIn);

interface Shown {
  formula?: unknown;
  value: unknown;
  numberFormat: string;
}

/**
 * Every cell of A1:H20 (and down to the last value) that holds anything, a value, a formula, a
 * number format or bold: what the flow left, leftovers of formatting included.
 */
function cells(excel: StandInHooks, sheet = "Sheet1"): Record<string, Shown> {
  const used = excel.sheets().find((s) => s.name === sheet)?.used ?? "A1";
  const bottom = Math.max(20, Number(/(\d+)$/.exec(used)?.[1]));
  const out: Record<string, Shown> = {};
  excel.read(sheet, `A1:H${bottom}`).forEach((row, r) =>
    row.forEach((cell, c) => {
      const empty = cell.value === "" && cell.formula === undefined;
      if (empty && cell.numberFormat === "General" && !cell.bold) return;
      out[`${"ABCDEFGH"[c]}${r + 1}`] = {
        ...(cell.formula !== undefined ? { formula: cell.formula } : {}),
        value: cell.value,
        numberFormat: cell.numberFormat,
      };
    }),
  );
  return out;
}

interface Context {
  sync(): Promise<void>;
}
type Run = (batch: (context: Context) => unknown) => unknown;

/**
 * The analyst types `plan[k]` (cell -> entry) right after the pane's sync number k, counted over
 * every Excel.run from now on; returns the function that stops counting.
 */
function typeAfterSyncs(
  excel: StandInHooks,
  plan: Record<number, Record<string, string>>,
): () => void {
  const g = globalThis as unknown as { Excel: { run: Run } };
  const run = g.Excel.run;
  let syncs = 0;
  g.Excel.run = (batch) =>
    run((context) => {
      const sync = context.sync.bind(context);
      context.sync = () => {
        syncs += 1;
        for (const [address, text] of Object.entries(plan[syncs] ?? {}))
          excel.enterAfterSync("Sheet1", address, text);
        return sync();
      };
      return batch(context);
    });
  return () => {
    g.Excel.run = run;
  };
}

/** Runs `writeTable`, the analyst typing `entries` right after the pane's sync number `afterSync`. */
async function importTyping(
  excel: StandInHooks,
  table: TableData,
  options: WriteTableOptions,
  afterSync: number,
  entries: Record<string, string>,
): Promise<unknown> {
  const stop = typeAfterSyncs(excel, { [afterSync]: entries });
  try {
    return await writeTable(table, options);
  } catch (err) {
    return err;
  } finally {
    stop();
  }
}

const en = translator("en");
const ja = translator("ja");

// 7 rows at B2, 3 per sync: header B2:D2, blocks B3:D5, B6:D8, B9:D9, caption B11. Syncs: 1 table
// lookup, 2 selection, 3 emptiness check, 4 header + block 1, 5 block 2, 6 block 3, 7 table and caption.
const ROWS = 7;
const OPTIONS = { name: "T", caption: "出典: IRBANK", rowsPerSync: 3 };

function workbook(): StandInHooks {
  const excel = installExcelStandIn();
  excel.select("Sheet1", "B2");
  return excel;
}

/** The sheet after the import with nobody typing. */
async function cleanImport(): Promise<Record<string, Shown>> {
  const excel = workbook();
  await importTyping(excel, pricesTable(ROWS), OPTIONS, 0, {});
  const all = cells(excel);
  uninstallExcelStandIn();
  return all;
}

test("import without typing: every cell written as before (header, blocks, caption), the table added", async () => {
  const excel = workbook();
  const written = await importTyping(excel, pricesTable(ROWS), OPTIONS, 0, {});
  expect(written).toEqual({ name: "T", sheet: "Sheet1", address: "B2:D9", rows: ROWS });
  const all = cells(excel);
  expect(Object.keys(all).sort()).toEqual(
    ["B", "C", "D"]
      .flatMap((c) => [2, 3, 4, 5, 6, 7, 8, 9].map((r) => `${c}${r}`))
      .concat("B11")
      .sort(),
  );
  expect(all.B2).toEqual({ value: "日付", numberFormat: "@" });
  expect(all.C2).toEqual({ value: "終値（円）", numberFormat: "@" });
  // 2026-01-01 is serial 46023
  expect(all.B3).toEqual({ value: 46023, numberFormat: "yyyy/mm/dd" });
  expect(all.C3).toEqual({ value: 1000, numberFormat: "#,##0" });
  expect(all.C9).toEqual({ value: 1006, numberFormat: "#,##0" });
  expect(all.D9).toEqual({ value: 5000, numberFormat: "#,##0" });
  expect(all.B11).toEqual({ value: "出典: IRBANK", numberFormat: "@" });
  expect(excel.sheets()[0]?.tables).toEqual([{ name: "T", address: "B2:D9" }]);
});

// What the analyst types and what the cell then shows: a number, text that looks like a formula
// (kept as text), and a formula of their own.
const NUMBER = { text: "42", shown: { value: 42, numberFormat: "General" } };
const LOOKS_LIKE_FORMULA = { text: "'=A1", shown: { value: "=A1", numberFormat: "General" } };
const FORMULA = {
  text: "=SUM(1,2)",
  shown: { formula: "=SUM(1,2)", value: 3, numberFormat: "General" },
};

test.each([
  // after the check, into the first block (written with the header)
  { afterSync: 3, cell: "C4", typed: NUMBER },
  // after the check, into the header row
  { afterSync: 3, cell: "D2", typed: LOOKS_LIKE_FORMULA },
  // after block 1, into a cell of block 2
  { afterSync: 4, cell: "C7", typed: FORMULA },
  // after block 2, into the last block
  { afterSync: 5, cell: "B9", typed: LOOKS_LIKE_FORMULA },
  // after the last block, into the caption cell
  { afterSync: 6, cell: "B11", typed: NUMBER },
])(
  "typed into $cell after sync $afterSync: the entry is kept exactly, the import stops and leaves nothing, the message names the cell",
  async ({ afterSync, cell, typed }) => {
    const excel = workbook();
    const err = await importTyping(excel, pricesTable(ROWS), OPTIONS, afterSync, {
      [cell]: typed.text,
    });
    expect(err).toBeInstanceOf(TypedDuringImportError);
    expect(cells(excel)).toEqual({ [cell]: typed.shown });
    expect(excel.sheets()[0]?.tables).toEqual([]);
    expect(errorText(err, en)).toBe(en("typedDuringImport", { address: `Sheet1!${cell}` }));
    expect(errorText(err, ja)).toContain(`Sheet1!${cell}`);
    expect(errorText(err, ja)).toContain("入力内容はそのまま残し");
  },
);

test.each([
  // beside the table, after the check and after a block
  { afterSync: 3, cells: { E3: "note" } },
  { afterSync: 5, cells: { A9: "memo", E100: "7" } },
  // the blank row between the table and its caption: the import writes nothing there
  { afterSync: 6, cells: { B10: "gap", C11: "beside the caption" } },
])(
  "typed beside what the import writes ($cells): the import completes, the entries stay",
  async (c) => {
    const clean = await cleanImport();
    const excel = workbook();
    const written = await importTyping(excel, pricesTable(ROWS), OPTIONS, c.afterSync, c.cells);
    expect(written).toMatchObject({ address: "B2:D9", rows: ROWS });
    const typed = Object.fromEntries(
      Object.entries(c.cells).map(([address, text]) => [
        address,
        /^\d+$/.test(text)
          ? { value: Number(text), numberFormat: "General" }
          : { value: text, numberFormat: "General" },
      ]),
    );
    expect(cells(excel)).toEqual({ ...clean, ...typed });
  },
);

test("typing over the import's own cells after the sync that stopped it is kept too, as the newest entry", async () => {
  // After block 1 the analyst types into block 2 (C7); after block 2's sync, before the clean-up,
  // they overwrite an imported value of block 1 (C3) and type into C7 again.
  const excel = workbook();
  const stop = typeAfterSyncs(excel, { 4: { C7: "first" }, 5: { C3: "mine", C7: "second" } });
  const err = await writeTable(pricesTable(ROWS), OPTIONS).catch((e: unknown) => e);
  stop();
  expect(err).toBeInstanceOf(TypedDuringImportError);
  expect(cells(excel)).toEqual({
    C3: { value: "mine", numberFormat: "#,##0" },
    C7: { value: "second", numberFormat: "#,##0" },
  });
});

test("a cancelled import removes the rows already written, but not what the analyst typed over them", async () => {
  const excel = workbook();
  const ac = new AbortController();
  // Cancel once block 1 is written; the analyst had typed over one of its values meanwhile.
  const err = await importTyping(
    excel,
    pricesTable(ROWS),
    { ...OPTIONS, signal: ac.signal, onProgress: () => ac.abort() },
    4,
    { D4: "checked" },
  );
  expect((err as Error).name).toBe("WriteCancelledError");
  expect(cells(excel)).toEqual({ D4: { value: "checked", numberFormat: "#,##0" } });
  expect(excel.sheets()[0]?.tables).toEqual([]);
});

/** The workbook with table T imported at B2 (7 rows: B2:D9, caption B11), and its cells. */
async function imported(): Promise<{ excel: StandInHooks; before: Record<string, Shown> }> {
  const excel = workbook();
  await writeTable(pricesTable(ROWS), OPTIONS);
  return { excel, before: cells(excel) };
}

// A refresh of T with 10 rows (B2:D12, caption B14). Syncs: 1 table lookup, 2 its range, 3 check of
// B12:D14, 4-8 the old table read (B2:D11, 2 rows a sync), 9 header + block 1, 10 block 2,
// 11 block 3, 12 block 4, 13 table and caption.
const REFRESH = { ...OPTIONS, replace: true };

test("refresh without typing: the new rows replace the old table in place", async () => {
  const { excel } = await imported();
  const written = await writeTable(pricesTable(10, 2000), REFRESH);
  expect(written).toEqual({ name: "T", sheet: "Sheet1", address: "B2:D12", rows: 10 });
  const all = cells(excel);
  expect(Object.keys(all)).toHaveLength(3 * 11 + 1);
  expect(all.C3).toEqual({ value: 2000, numberFormat: "#,##0" });
  expect(all.C12).toEqual({ value: 2009, numberFormat: "#,##0" });
  expect(all.B14).toEqual({ value: "出典: IRBANK", numberFormat: "@" });
  expect(excel.sheets()[0]?.tables).toEqual([{ name: "T", address: "B2:D12" }]);
});

test.each([
  // after the old table was read, into the rows the refresh adds below it (block 4)
  { afterSync: 8, cell: "C12", typed: NUMBER },
  // after block 1, into block 2 (a row the old table held, which the refresh has cleared)
  { afterSync: 9, cell: "C7", typed: FORMULA },
  // after block 3, into the rows the refresh adds below
  { afterSync: 11, cell: "B12", typed: LOOKS_LIKE_FORMULA },
  // after the last block, into the new caption cell
  { afterSync: 12, cell: "B14", typed: NUMBER },
])(
  "refresh typed into $cell after sync $afterSync: the entry is kept, the old table is back as it was, the message says so",
  async ({ afterSync, cell, typed }) => {
    const { excel, before } = await imported();
    const err = await importTyping(excel, pricesTable(10, 2000), REFRESH, afterSync, {
      [cell]: typed.text,
    });
    expect(err).toBeInstanceOf(TypedDuringImportError);
    // Where the entry went into a row the old table held, it stays there, over the old value.
    expect(cells(excel)).toEqual({ ...before, [cell]: typed.shown });
    expect(excel.sheets()[0]?.tables).toEqual([{ name: "T", address: "B2:D9" }]);
    expect(errorText(err, en)).toBe(
      en("typedDuringRefresh", { address: `Sheet1!${cell}`, table: "T" }),
    );
    expect(errorText(err, ja)).toContain("更新前の状態に戻しています");
  },
);

test("a refresh with a new column: typing beside the old table, where the new column goes, is kept", async () => {
  const { excel, before } = await imported();
  const wider = shapeTable(
    Array.from({ length: 3 }, (_, i) => ({
      date: "2026-02-02",
      close: 3000 + i,
      volume: 1,
      value: 9,
    })),
    [
      { key: "close", label: "終値", unit: "jpy" },
      { key: "volume", label: "出来高", unit: "shares" },
      { key: "value", label: "売買代金", unit: "jpy" },
    ],
    attribution,
    { lang: "ja", scale: "jpy", headers: "ja" },
  );
  // Syncs: 1 lookup, 2 its range, 3 check of E2:E7, 4-8 the old table read, 9 header + block 1.
  const err = await importTyping(excel, wider, REFRESH, 8, { E4: "memo" });
  expect(err).toBeInstanceOf(TypedDuringImportError);
  expect(cells(excel)).toEqual({ ...before, E4: { value: "memo", numberFormat: "General" } });
  expect(excel.sheets()[0]?.tables).toEqual([{ name: "T", address: "B2:D9" }]);
});

test("a cancelled refresh puts the old table back as it was", async () => {
  const { excel, before } = await imported();
  const ac = new AbortController();
  const err = await writeTable(pricesTable(10, 2000), {
    ...REFRESH,
    signal: ac.signal,
    onProgress: () => ac.abort(),
  }).catch((e: unknown) => e);
  expect((err as Error).name).toBe("WriteCancelledError");
  expect(cells(excel)).toEqual(before);
  expect(excel.sheets()[0]?.tables).toEqual([{ name: "T", address: "B2:D9" }]);
});

test("typed into two blocks after the check: the first stops the import, both entries stay, the message names the first", async () => {
  const excel = workbook();
  const err = await importTyping(excel, pricesTable(ROWS), OPTIONS, 3, {
    D5: "x",
    C9: "=SUM(1,2)",
  });
  expect(err).toBeInstanceOf(TypedDuringImportError);
  expect(cells(excel)).toEqual({ D5: { value: "x", numberFormat: "General" }, C9: FORMULA.shown });
  expect((err as TypedDuringImportError).address).toBe("Sheet1!D5");
});

test("typing again while the stopped import gives the cell back: the newest entry stays", async () => {
  // C7 typed after block 1 (sync 4), found at block 2 (sync 5); the take-back reads and clears
  // B2:D5 and B6:D8 two rows a sync (6-9), then puts C7 back (10), guarded: typed again after 9,
  // the put-back wrote "first" over "second", so "second" goes back in turn (11).
  const excel = workbook();
  const stop = typeAfterSyncs(excel, { 4: { C7: "first" }, 9: { C7: "second" } });
  const err = await writeTable(pricesTable(ROWS), OPTIONS).catch((e: unknown) => e);
  stop();
  expect(err).toBeInstanceOf(TypedDuringImportError);
  expect(cells(excel)).toEqual({ C7: { value: "second", numberFormat: "General" } });
});
