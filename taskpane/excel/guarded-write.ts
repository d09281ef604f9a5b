// Writes a formula over a cell only while it holds what was read; what the analyst typed meanwhile goes back.

import { isFormulaCell, TEXT_FORMAT } from "./cell-content";

/** The Range properties a guarded write reads: formula bar text, value, number format. */
export const CELL_CONTENT = "formulas,values,numberFormat";

/** One cell's content as loaded with `CELL_CONTENT`. */
export interface CellContent {
  /** Range.formulas: the formula, or the constant as typed. */
  formula: unknown;
  value: unknown;
  format: unknown;
}

/** The content of a one-cell range loaded with `CELL_CONTENT` (and synced). */
export function contentOf(range: Excel.Range): CellContent {
  return {
    formula: range.formulas[0]?.[0],
    value: range.values[0]?.[0],
    format: range.numberFormat[0]?.[0],
  };
}

/** A guarded write, queued: after its sync, `settleWrites` finds whether the analyst typed over it. */
export interface GuardedWrite {
  /** The analyst's content if they typed into the cell before the write ran, else undefined. */
  typed(): CellContent | undefined;
  /** Their content queued back into the cell, as a put-back of `putBack`. */
  back: (held: CellContent) => PutBack;
}

/**
 * Queues the write of `formula` into `target`, whose content was `read` in an earlier batch, with
 * a probe just before it: commands in a batch run in order at sync (Office.js: "Excel JavaScript
 * object model", load and sync), so `probe` (a second proxy on the same cell) captures what the
 * cell held when the write ran, even if the analyst typed after the read (Excel holds API batches
 * while a cell is being edited and runs them once the edit is committed). After the sync,
 * `settleWrites` puts the analyst's content back where they typed (guarded in turn).
 * @example const w = guardedWrite(cell, sheet.getRange("B2"), "=KAISHA.PRICE(7203)", contentOf(cell)); await context.sync(); const [typed] = await settleWrites(context, [w]);
 */
export function guardedWrite(
  target: Excel.Range,
  probe: Excel.Range,
  formula: string,
  read: CellContent,
): GuardedWrite {
  probe.load(CELL_CONTENT);
  writeFormula(target, formula, read.format);
  return {
    typed() {
      const held = contentOf(probe);
      return sameContent(held, read) ? undefined : held;
    },
    back: (held) => ({
      target,
      probe,
      held,
      // What the write left: the formula, as a formula (its format is Excel's to adjust; Excel
      // may case its names: an entry differing only in case is the same entry).
      stands: (now) =>
        isFormulaCell(now.formula, now.value) &&
        now.formula.toUpperCase() === formula.toUpperCase(),
    }),
  };
}

/**
 * After the sync of guarded writes: the analyst's content goes back where they typed before a
 * write ran (`putBack`, itself guarded). Resolves, write by write, to what the analyst left in the
 * cell (their newest entry), or undefined where the write stands.
 * @example const restored = (await settleWrites(context, writes)).filter(Boolean).length;
 */
export async function settleWrites(
  context: Excel.RequestContext,
  writes: readonly GuardedWrite[],
): Promise<(CellContent | undefined)[]> {
  const typed = writes.map((w) => w.typed());
  const backs = writes.flatMap((w, i) => {
    const held = typed[i];
    return held ? [w.back(held)] : [];
  });
  const left = await putBack(context, backs);
  let next = 0;
  return typed.map((held) => (held ? left[next++] : undefined));
}

const MAX_ROUNDS = 20;

/** A cell whose content the add-in wrote over: what to put back, and how to see it still stands. */
export interface PutBack {
  /** The proxy the content is written through. */
  target: Excel.Range;
  /** A second proxy on the same cell, for the probe (a proxy written through reads the cells). */
  probe: Excel.Range;
  /** The analyst's content to put back. */
  held: CellContent;
  /** True when the cell still holds what the add-in wrote (nobody typed over it since). */
  stands: (now: CellContent) => boolean;
}

/**
 * Puts the analyst's content back, each restore guarded like the write it undoes: a probe just
 * before it in the same batch. When the analyst typed into the cell again between the batches, the
 * restore has just written their older entry over the newer one, so the newer one goes back in the
 * next batch, guarded the same way, until a batch runs with no new typing. Resolves, cell by cell,
 * to what the analyst left there last.
 * @example const left = await putBack(context, [{ target, probe, held, stands: (now) => now.formula === "" }]);
 */
export async function putBack(
  context: Excel.RequestContext,
  cells: readonly PutBack[],
): Promise<CellContent[]> {
  const left = cells.map((c) => c.held);
  let pending = cells.map((cell, i) => ({ ...cell, i }));
  // Each round needs the analyst to type into the cell again within one batch; the bound only
  // keeps a host that reads back an entry differently from what was written from looping.
  for (let round = 0; pending.length > 0 && round < MAX_ROUNDS; round++) {
    for (const cell of pending) {
      cell.probe.load(CELL_CONTENT);
      restoreCell(cell.target, cell.held);
    }
    // eslint-disable-next-line office-addins/no-context-sync-in-loop -- a round only when the analyst typed again
    await context.sync();
    pending = pending.flatMap((cell) => {
      const now = contentOf(cell.probe);
      if (cell.stands(now)) return [];
      // Typed again before this restore ran: their newest entry goes back over the older one.
      left[cell.i] = now;
      const older = cell.held;
      return [{ ...cell, held: now, stands: (later: CellContent) => sameContent(later, older) }];
    });
  }
  return left;
}

/**
 * The same entry: the same formula bar text, the same kind (a formula is not text that looks like
 * it), and Text ("@") on both or neither. Any other change of number format is not an entry the
 * write goes over: the write sets the formula only, and a formula cell's format can change with its
 * calculation (a formatted number's format, read while the cell showed #BUSY! and again once it had
 * its value: taken for typing, it made the builder's Update ask about the cell's own formula). Text
 * is the exception: it decides how the write lands (writeFormula).
 */
function sameContent(a: CellContent, b: CellContent): boolean {
  return (
    a.formula === b.formula &&
    (a.format === TEXT_FORMAT) === (b.format === TEXT_FORMAT) &&
    isFormulaCell(a.formula, a.value) === isFormulaCell(b.formula, b.value)
  );
}

/**
 * Writes back what a probe read, exactly: a formula as a formula, a number or boolean as itself,
 * text as text, each under the number format the cell had (the write of a formula may change it).
 */
function restoreCell(range: Excel.Range, held: CellContent): void {
  const format = typeof held.format === "string" ? held.format : "General";
  if (isFormulaCell(held.formula, held.value)) {
    writeFormula(range, held.formula, format);
    range.numberFormat = [[format]];
    return;
  }
  range.numberFormat = [[format]];
  range.values = [[textSafe(held.value, format) as string]];
}

/**
 * Writes a formula into a cell of this number format. A Text ("@") cell keeps whatever is written
 * as text (Range.values: a Text cell keeps "=…"), yet holds a formula entered before the format was
 * set: the formula goes in under General and the Text format after it, so it stays a formula.
 */
function writeFormula(range: Excel.Range, formula: string, format: unknown): void {
  if (format !== TEXT_FORMAT) {
    range.formulas = [[formula]];
    return;
  }
  range.numberFormat = [["General"]];
  range.formulas = [[formula]];
  range.numberFormat = [[TEXT_FORMAT]];
}

/**
 * Text stays text: a Text ("@") cell keeps any string as written; elsewhere Range.values reads a
 * string as the analyst's typing would ("=…", "+…", "-…" become formulas, "0012" a number), and
 * Excel's documented escape for an entry that must stay text is a leading apostrophe (Microsoft
 * Support, "Format numbers as text"), which Excel does not keep in the value (office-js#6687).
 */
function textSafe(value: unknown, format: string): unknown {
  if (typeof value !== "string" || value === "" || format === TEXT_FORMAT) return value;
  return `'${value}`;
}
