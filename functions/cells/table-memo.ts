// A table function's result remembered per answer object and argument signature: a warm
// recalculation of VALUATION gives the table it built from the same fresh answer, not a rebuild.

import type { Cell } from "../../src/excel/values";

/** Signatures kept per answer (a workbook asks one answer in a few shapes; past this it starts over). */
const MAX_SHAPES = 64;

/**
 * Tables by the answer they were built from (a cached body: the same frozen object while it is
 * fresh; a refreshed or stale-marked answer is another object) and the arguments that shaped them.
 * The tables are frozen: every cell given one shares it.
 */
export class TableMemo {
  private readonly byAnswer = new WeakMap<object, Map<string, readonly (readonly Cell[])[]>>();

  get(answer: object, signature: string): Cell[][] | undefined {
    return this.byAnswer.get(answer)?.get(signature) as Cell[][] | undefined;
  }

  set(answer: object, signature: string, table: Cell[][]): Cell[][] {
    if (!Object.isFrozen(answer)) return table;
    let shapes = this.byAnswer.get(answer);
    if (shapes === undefined) {
      shapes = new Map();
      this.byAnswer.set(answer, shapes);
    }
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    for (const row of table) Object.freeze(row);
    shapes.set(signature, Object.freeze(table));
    return table;
  }
}
