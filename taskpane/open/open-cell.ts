// A KAISHA formula cell as the open's scan finds it: the one type morning-open.ts and due-record.ts share, kept apart so neither imports the other's module for it.

/** A KAISHA formula cell as the scan finds it (taskpane/excel/formulas.ts KaishaCell). */
export interface OpenCell {
  sheet: string;
  /** the cell's address without its sheet, e.g. "B3". */
  address: string;
  formula: string;
  /** The value it shows (saved in the file until it is evaluated): an error is recalculated. */
  value?: unknown;
}
