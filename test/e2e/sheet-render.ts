// Draws a block of the Excel stand-in's cells as a grid page and saves its screenshot, so a built
// sheet can be looked at (the stand-in itself has no grid to show).
import path from "node:path";
import type { Harness } from "./harness";
import type { CellInfo } from "./cockpit-helpers";
import { SCREENSHOTS } from "./paths";

function columnName(index: number): string {
  let n = index + 1;
  let name = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Saves `<name>.png`: the cells as Excel would show them (shown text, bold, numbers right), with
 * column letters and row numbers. `firstRow`/`firstCol` are the block's 0-based origin.
 */
export async function screenshotCells(
  h: Harness,
  cells: CellInfo[][],
  name: string,
  origin: { firstRow: number; firstCol: number } = { firstRow: 0, firstCol: 0 },
): Promise<string> {
  const width = Math.max(...cells.map((r) => r.length));
  const head = Array.from(
    { length: width },
    (_, c) => `<th>${columnName(origin.firstCol + c)}</th>`,
  ).join("");
  const body = cells
    .map((row, r) => {
      const tds = row
        .map((c) => {
          const text = c.error ? String(c.value) : c.text;
          // Numbers right, and the sheets' right-aligned words in number columns (—, NM).
          const right = typeof c.value === "number" || text === "—" || text === "NM";
          const style = `${c.bold ? "font-weight:bold;" : ""}${right ? "text-align:right;" : ""}`;
          return `<td style="${style}">${escapeHtml(text)}</td>`;
        })
        .join("");
      return `<tr><th>${origin.firstRow + r + 1}</th>${tds}</tr>`;
    })
    .join("");
  const html = `<!doctype html><meta charset="utf-8"><style>
    body { font: 12px "IPAGothic", "Noto Sans CJK JP", sans-serif; margin: 8px; }
    table { border-collapse: collapse; }
    td, th { border: 1px solid #d0d0d0; padding: 2px 6px; white-space: nowrap; max-width: 420px;
      overflow: hidden; text-overflow: ellipsis; }
    th { background: #f3f3f3; color: #555; font-weight: normal; }
  </style><table><tr><th></th>${head}</tr>${body}</table>`;
  const page = await h.context.newPage();
  try {
    await page.setContent(html);
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  } finally {
    await page.close();
  }
}
