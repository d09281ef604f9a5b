// Reads the values of given single cells ("Sheet!A2"), in bounded batches: the cells a model's KAISHA formulas name their companies by.

import { runExcel } from "./run";

/** Cells read per sync (office-js: a request stays well under Excel on the web's 5 MB). */
const CELLS_PER_SYNC = 5_000;

/**
 * The value of each cell at `refs` ("Sheet!A2", the sheet unquoted), by ref; the cells of a batch
 * Excel refused (a sheet gone or renamed) are left out.
 * @example (await readCellValues(["Model!A2"])).get("Model!A2") // 7203
 */
export async function readCellValues(refs: readonly string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (let i = 0; i < refs.length; i += CELLS_PER_SYNC) {
    const batch = refs.slice(i, i + CELLS_PER_SYNC);
    // A sheet gone or renamed fails the batch: its cells are left out (recalculated by the open).
    const values = await runExcel(async (context) => {
      const ranges = batch.map((ref) => {
        const at = ref.lastIndexOf("!");
        return context.workbook.worksheets
          .getItem(ref.slice(0, at))
          .getRange(ref.slice(at + 1))
          .load("values");
      });
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per bounded batch (CELLS_PER_SYNC)
      await context.sync();
      return ranges.map((range) => range.values);
    }).catch(() => [] as unknown[][][]);
    batch.forEach((ref, k) => {
      const v = values[k];
      if (v !== undefined) out.set(ref, v[0]?.[0]);
    });
  }
  return out;
}
