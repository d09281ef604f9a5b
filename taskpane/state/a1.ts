// A1 address helpers for the Excel module: column letters, cell offsets, sheet-qualified addresses.

/** 0 -> "A", 25 -> "Z", 26 -> "AA". */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/**
 * "AA" -> 26.
 * @internal The Excel stand-in (standin/, sandbox builds only) reads addresses with it too.
 */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export interface CellRef {
  sheet: string | undefined;
  row: number; // 0-based
  col: number; // 0-based
}

/** Parses "Sheet1!B3", "'My sheet'!$B$3:C4" (first cell) or "B3". */
export function parseAddress(address: string): CellRef {
  const bang = address.lastIndexOf("!");
  const sheetPart = bang >= 0 ? address.slice(0, bang) : undefined;
  const cellPart = (bang >= 0 ? address.slice(bang + 1) : address).split(":")[0] ?? "";
  const m = /^\$?([A-Za-z]+)\$?(\d+)$/.exec(cellPart);
  if (!m) throw new Error(`Not an A1 address: ${address}`);
  const sheet =
    sheetPart === undefined ? undefined : sheetPart.replace(/^'(.*)'$/, "$1").replace(/''/g, "'");
  return { sheet, row: Number(m[2]) - 1, col: columnIndex(m[1] ?? "A") };
}

/** "B3" for row 2, col 1. */
export function cellAddress(row: number, col: number): string {
  return `${columnLetter(col)}${row + 1}`;
}

/** "B3:D10" for a block starting at (row, col) with the given size. */
export function rangeAddress(row: number, col: number, rows: number, cols: number): string {
  const start = cellAddress(row, col);
  if (rows === 1 && cols === 1) return start;
  return `${start}:${cellAddress(row + rows - 1, col + cols - 1)}`;
}

/** Sheet-qualified address, quoting the sheet name when needed. */
export function qualify(sheet: string, address: string): string {
  const quoted = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
  return `${quoted}!${address}`;
}
