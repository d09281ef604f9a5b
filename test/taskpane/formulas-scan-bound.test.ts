// The workbook scan at 301k cells: every KAISHA cell found, no Excel request carrying more than the bound's cells (the web's 5 MB), Excel given control back between blocks.

/* eslint-disable @typescript-eslint/no-explicit-any */
import { SCAN_BLOCK_CELLS, findKaishaFormulas } from "../../taskpane/excel/formulas";
import { parseAddress } from "../../taskpane/state/a1";

/** A sheet whose every cell's formula is computed from its place (nothing stored up front). */
interface LazySheet {
  name: string;
  rows: number;
  cols: number;
  formulaAt(row: number, col: number): string;
}

/**
 * A minimal Excel for the scan: worksheets, used ranges, getRange, load and sync; counts the cells
 * each sync's loads carry.
 */
function installLazyExcel(sheets: LazySheet[]): { perSync: number[] } {
  const perSync: number[] = [];
  let pending: (() => number)[] = [];
  const rangeOf = (sheet: LazySheet, row: number, col: number, rows: number, cols: number) => {
    const r: any = { isNullObject: false };
    r.load = (props: string) => {
      pending.push(() => {
        const letters = (c: number) => {
          let s = "";
          for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26))
            s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
          return s;
        };
        r.address = `${sheet.name}!${letters(col)}${row + 1}:${letters(col + cols - 1)}${row + rows}`;
        r.rowCount = rows;
        r.columnCount = cols;
        if (!props.includes("formulas")) return 0;
        r.formulas = Array.from({ length: rows }, (_, i) =>
          Array.from({ length: cols }, (_, j) => sheet.formulaAt(row + i, col + j)),
        );
        r.values = r.formulas.map((line: string[]) => line.map((f) => (f.startsWith("=") ? 1 : f)));
        return rows * cols;
      });
      return r;
    };
    return r;
  };
  const worksheet = (sheet: LazySheet) => ({
    name: sheet.name,
    load: () => undefined,
    getUsedRangeOrNullObject: () => rangeOf(sheet, 0, 0, sheet.rows, sheet.cols),
    getRange: (a: string) => {
      const [from, to] = a.split(":");
      const s = parseAddress(from ?? "A1");
      const e = parseAddress(to ?? from ?? "A1");
      return rangeOf(sheet, s.row, s.col, e.row - s.row + 1, e.col - s.col + 1);
    },
  });
  const items = sheets.map(worksheet);
  const context = {
    workbook: { worksheets: { items, load: () => undefined } },
    sync: async () => {
      const loads = pending;
      pending = [];
      perSync.push(loads.reduce((n, load) => n + load(), 0));
    },
  };
  (globalThis as any).Excel = { run: (batch: (c: unknown) => Promise<unknown>) => batch(context) };
  return { perSync };
}

afterEach(() => delete (globalThis as any).Excel);

test("301k cells on three sheets: every KAISHA cell found, each request within the bound", async () => {
  // A Model-500-sized workbook: a label column and 600 columns of KAISHA formulas on 500 rows,
  // a second sheet of 250 rows, and a notes sheet without any.
  const kaisha = (row: number, col: number) =>
    col === 0 ? `label ${row}` : `=KAISHA.FINANCIAL(${1300 + row},"sales","FY-${col % 10}")`;
  const { perSync } = installLazyExcel([
    { name: "Comps", rows: 500, cols: 401, formulaAt: kaisha },
    { name: "Model", rows: 250, cols: 401, formulaAt: kaisha },
    { name: "Notes", rows: 100, cols: 5, formulaAt: (r, c) => `note ${r}-${c}` },
  ]);
  const cells = await findKaishaFormulas("workbook");
  // 500·401 + 250·401 + 100·5 = 301,250 cells, of which 750·400 hold KAISHA formulas.
  expect(cells.length).toBe(300_000);
  expect(cells[0]).toMatchObject({ sheet: "Comps", address: "B1" });
  expect(cells.at(-1)).toMatchObject({ sheet: "Model", address: "OK250" });
  const loaded = perSync.reduce((a, b) => a + b, 0);
  expect(loaded).toBe(301_250);
  // The measured bound: no request over SCAN_BLOCK_CELLS cells (~1.6 MB of these formulas and
  // values, under the web's 5 MB); 11 syncs for 301k cells: the sizes, then blocks of 99 rows of
  // 401 columns (6 on Comps, 3 on Model) and the notes.
  expect(Math.max(...perSync)).toBeLessThanOrEqual(SCAN_BLOCK_CELLS);
  expect(perSync).toHaveLength(11);
});
