// The cells an update changed: a cell-by-cell diff of the KAISHA cells' values before and after it,
// and the change log's shape (one entry per update, its cells grouped by what brought them).

/** One KAISHA cell's value: a formula's cell or a cell of its spill. */
export interface CellValue {
  sheet: string;
  /** the cell's address without its sheet ("C5"). */
  address: string;
  /** the formula's cell, sheet-qualified (the spill's anchor for a spilled cell). */
  anchor: string;
  formula: string;
  /** the cell's place in the anchor's spill. */
  row: number;
  col: number;
  value: unknown;
}

/** A cell whose value an update changed: the cell's place, its old and new value. */
export interface ChangedCell extends Omit<CellValue, "value"> {
  old: unknown;
  new: unknown;
  /** the difference in % of the old value, when both are numbers and the old is not 0. */
  pct?: number;
}

/** Values a cell shows while it waits (Excel's #BUSY!, #GETTING_DATA): not a value yet. */
export function isPending(value: unknown): boolean {
  return typeof value === "string" && /^#(BUSY!|GETTING_DATA)/.test(value);
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || (isNaN(a) && isNaN(b));
  return (a ?? "") === (b ?? "");
}

function cellKey(c: { sheet: string; address: string }): string {
  return `${c.sheet}!${c.address}`;
}

/**
 * The cells whose values differ after the update: by sheet and address, a cell absent on either
 * side is "" there (a spill that grew or shrank); a cell still waiting after the update is left
 * out (it has not changed yet).
 * @example diffCells([{…, address: "B2", value: 100 }], [{…, address: "B2", value: 110 }])[0]?.pct // 10
 */
export function diffCells(
  before: readonly CellValue[],
  after: readonly CellValue[],
): ChangedCell[] {
  const old = new Map(before.map((c) => [cellKey(c), c]));
  const out: ChangedCell[] = [];
  const seen = new Set<string>();
  const push = (c: CellValue, was: unknown, now: unknown) => {
    const pct =
      typeof was === "number" && typeof now === "number" && was !== 0
        ? ((now - was) / Math.abs(was)) * 100
        : undefined;
    out.push({
      sheet: c.sheet,
      address: c.address,
      anchor: c.anchor,
      formula: c.formula,
      row: c.row,
      col: c.col,
      old: was ?? "",
      new: now ?? "",
      ...(pct !== undefined ? { pct } : {}),
    });
  };
  for (const c of after) {
    const key = cellKey(c);
    seen.add(key);
    if (isPending(c.value)) continue;
    const was = old.get(key)?.value;
    if (!same(was, c.value)) push(c, was, c.value);
  }
  for (const c of before) if (!seen.has(cellKey(c)) && !same(c.value, "")) push(c, c.value, "");
  return out;
}

/** What brought a group of changes. */
export type ChangeKind = "new_period" | "restatement" | "new_price_day" | "changed";

/** A changed cell as the log keeps it: where, what it is, old → new. */
export interface LoggedCell {
  sheet: string;
  address: string;
  /** the item in words ("売上高"), when the cell could be traced. */
  item?: string;
  /** the period in words ("2025年3月期", a price day). */
  period?: string;
  old: unknown;
  new: unknown;
  pct?: number;
}

/** The cells one filing (or price day) changed, for one company. */
export interface ChangeGroup {
  kind: ChangeKind;
  company?: string;
  /** the period or day that brought them ("2027/03 Q2", "2026-11-20"). */
  label?: string;
  /** the filing found for it (a 訂正 for a restatement), when the disclosures list is in memory. */
  filing?: { doc_id: string; title: string; date: string; url?: string; correction: boolean };
  cells: LoggedCell[];
}

/** What started an update. */
export type UpdateTrigger = "revalidation" | "refresh" | "update" | "recalculation";

/** One update in the log. */
export interface LoggedUpdate {
  id: string;
  /** @unit ms since epoch */
  at: number;
  trigger: UpdateTrigger;
  groups: ChangeGroup[];
  /** cells changed beyond those kept (the log is bounded). */
  more: number;
}
