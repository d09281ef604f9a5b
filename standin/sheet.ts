// The preview grid's model: what each cell holds, formula results, and how results spill into
// neighbouring cells (blocked spills show #SPILL! as in Excel). No DOM here.
import { EMPTY_CELL, errorCell, type DisplayCell } from "./cell-display";
import type { CellInput, CellPosition } from "./formula-parser";

/** One cell as the grid shows it. */
export interface ViewCell {
  cell: DisplayCell | { kind: "busy"; text: "#BUSY!" };
  /** The formula cell whose result this is (itself for an anchor). */
  anchor?: CellPosition;
  spill?: "anchor" | "spilled";
}

function key(at: CellPosition): string {
  return `${at.row},${at.col}`;
}

function fromKey(k: string): CellPosition {
  const [row, col] = k.split(",").map(Number);
  return { row: row ?? 0, col: col ?? 0 };
}

interface Entry {
  text: string;
  input: CellInput;
}

export class Sheet {
  private readonly entries = new Map<string, Entry>();
  private readonly results = new Map<string, DisplayCell[][]>();
  private readonly busy = new Set<string>();
  private view = new Map<string, ViewCell>();

  /** Sets what the user typed (already read by readCellInput). Clears an old result. */
  setInput(at: CellPosition, text: string, input: CellInput): void {
    const k = key(at);
    this.results.delete(k);
    this.busy.delete(k);
    if (input.kind === "empty") this.entries.delete(k);
    else this.entries.set(k, { text, input });
    this.layout();
  }

  textAt(at: CellPosition): string {
    return this.entries.get(key(at))?.text ?? "";
  }

  inputAt(at: CellPosition): CellInput {
    return this.entries.get(key(at))?.input ?? { kind: "empty" };
  }

  setBusy(at: CellPosition): void {
    this.busy.add(key(at));
    this.layout();
  }

  setResult(at: CellPosition, cells: DisplayCell[][]): void {
    const k = key(at);
    if (this.entries.get(k)?.input.kind !== "formula") return; // replaced meanwhile
    this.busy.delete(k);
    this.results.set(k, cells);
    this.layout();
  }

  /** Formula cells in row-major order. */
  formulas(): CellPosition[] {
    return [...this.entries.entries()]
      .filter(([, e]) => e.input.kind === "formula")
      .map(([k]) => fromKey(k))
      .sort((a, b) => a.row - b.row || a.col - b.col);
  }

  clear(): void {
    this.entries.clear();
    this.results.clear();
    this.busy.clear();
    this.layout();
  }

  at(at: CellPosition): ViewCell | undefined {
    return this.view.get(key(at));
  }

  /** The displayed value (for references from other formulas). */
  valueAt(at: CellPosition): DisplayCell | undefined {
    const v = this.view.get(key(at));
    return v === undefined || v.cell.kind === "busy" ? undefined : v.cell;
  }

  /** Bottom-right corner of everything shown (for sizing the grid). */
  extent(): { rows: number; cols: number } {
    let rows = 0;
    let cols = 0;
    for (const k of this.view.keys()) {
      const { row, col } = fromKey(k);
      rows = Math.max(rows, row + 1);
      cols = Math.max(cols, col + 1);
    }
    return { rows, cols };
  }

  /** Every cell a formula's current result covers (anchor included). */
  spillArea(at: CellPosition): { from: CellPosition; to: CellPosition } {
    const cells = this.results.get(key(at));
    const rows = cells?.length ?? 1;
    const cols = cells?.[0]?.length ?? 1;
    return { from: at, to: { row: at.row + rows - 1, col: at.col + cols - 1 } };
  }

  /**
   * Recomputes the view: constants, then each formula's result placed from its cell. A result that
   * would cover a typed cell or another result is not spilled: its anchor shows #SPILL!.
   */
  private layout(): void {
    const view = new Map<string, ViewCell>();
    for (const [k, e] of this.entries) {
      if (e.input.kind === "constant") {
        const v = e.input.value;
        const cell: DisplayCell =
          typeof v === "number"
            ? { kind: "number", value: v, text: String(v) }
            : typeof v === "boolean"
              ? { kind: "boolean", value: v, text: v ? "TRUE" : "FALSE" }
              : { kind: "text", value: v, text: v };
        view.set(k, { cell });
      }
    }
    for (const at of this.formulas()) {
      const k = key(at);
      if (this.busy.has(k) || !this.results.has(k)) {
        view.set(k, { cell: { kind: "busy", text: "#BUSY!" }, anchor: at, spill: "anchor" });
        continue;
      }
      const cells = this.results.get(k) ?? [[EMPTY_CELL]];
      const blocked = cells.some((row, r) =>
        row.some((_, c) => {
          if (r === 0 && c === 0) return false;
          const target = key({ row: at.row + r, col: at.col + c });
          return this.entries.has(target) || view.has(target);
        }),
      );
      if (blocked) {
        view.set(k, { cell: errorCell("#SPILL!", "spill-blocked"), anchor: at, spill: "anchor" });
        continue;
      }
      cells.forEach((row, r) =>
        row.forEach((cell, c) => {
          const target = { row: at.row + r, col: at.col + c };
          view.set(key(target), {
            cell,
            anchor: at,
            spill: r === 0 && c === 0 ? "anchor" : "spilled",
          });
        }),
      );
    }
    this.view = view;
  }
}
