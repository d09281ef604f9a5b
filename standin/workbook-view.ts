// The workbook page's grid: shows the Excel stand-in's workbook (excel-standin.ts) beside the real task
// pane, so every pane flow (imports, builder, company and comps sheets, refresh, freeze) runs in a
// browser: click a cell to select it (what the pane acts on), type into the bar to enter a formula.

import { columnLetter } from "../taskpane/state/a1";
import { standInCellText } from "./cell-display";

/** What the stand-in's `read` hook (install.ts) reports about a cell. */
interface StandInCell {
  value: unknown;
  formula?: string;
  numberFormat: string;
  error?: string;
  message?: string;
}

interface StandInSheet {
  name: string;
  visibility: string;
  used: string | null;
  tables: { name: string; address: string }[];
  charts: { name: string; type: string; title: string; series: string[] }[];
}

/** The stand-in's hooks (window.__excelStandIn, the same the e2e tests drive). */
interface StandIn {
  read(sheet: string, address: string): StandInCell[][];
  select(sheet: string, address: string): void;
  enter(sheet: string, address: string, text: string): void;
  sheets(): StandInSheet[];
  activeSheet(): string;
  calculations(): number;
}

const MIN_ROWS = 40;
const MIN_COLS = 10;
/** Beyond this the grid stops drawing (the pane's tables are read in full by the tests, not here). */
const MAX_ROWS = 250;
const MAX_COLS = 40;
const REDRAW_MS = 400;

/** The bottom-right corner of a used range ("A1:F30" -> rows 30, cols 6). */
function extent(used: string | null): { rows: number; cols: number } {
  const m = used ? /([A-Z]+)(\d+)$/.exec(used) : null;
  if (!m) return { rows: 0, cols: 0 };
  let col = 0;
  for (const ch of m[1] ?? "") col = col * 26 + (ch.charCodeAt(0) - 64);
  return { rows: Number(m[2]), cols: col };
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Draws the stand-in's workbook into `root` and keeps it current (a redraw when a calculation, a
 * write by the pane or the selection changed).
 * @example mountWorkbookView(document.getElementById("workbook")!, window.__excelStandIn)
 */
export function mountWorkbookView(root: HTMLElement, excel: StandIn): void {
  let sheet = excel.activeSheet();
  let selected = "A1";
  let lastKey = "";

  const tabs = el("div", { class: "wb-tabs", role: "tablist", "data-testid": "wb-tabs" });
  const bar = el("div", { class: "wb-bar" });
  const nameBox = el("input", { class: "wb-name", "aria-label": "Cell", "data-testid": "wb-name" });
  const input = el("input", {
    class: "wb-input",
    "aria-label": "Formula",
    "data-testid": "wb-input",
    placeholder: '=KAISHA.FINANCIAL(7203,"sales")',
  });
  bar.append(nameBox, input);
  const grid = el("div", { class: "wb-grid", "data-testid": "wb-grid" });
  const notes = el("div", { class: "wb-notes", "data-testid": "wb-notes" });
  root.append(tabs, bar, grid, notes);

  const select = (address: string) => {
    selected = address;
    excel.select(sheet, address);
    lastKey = "";
    draw();
  };
  nameBox.addEventListener("change", () => {
    const a = nameBox.value.trim().toUpperCase();
    if (/^[A-Z]{1,3}[1-9]\d*$/.test(a)) select(a);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    excel.enter(sheet, selected, input.value);
    lastKey = "";
    draw();
  });

  function draw(): void {
    const sheets = excel.sheets().filter((s) => s.visibility === "Visible");
    // The pane may have activated or added a sheet (company sheet, comps sheet).
    const active = excel.activeSheet();
    if (active !== sheet && sheets.some((s) => s.name === active)) sheet = active;
    const info = sheets.find((s) => s.name === sheet) ?? sheets[0];
    if (!info) return;
    sheet = info.name;
    const key = JSON.stringify([excel.calculations(), sheets, sheet, selected]);
    const size = extent(info.used);
    const rows = Math.min(MAX_ROWS, Math.max(MIN_ROWS, size.rows + 5));
    const cols = Math.min(MAX_COLS, Math.max(MIN_COLS, size.cols + 2));
    const cells = excel.read(sheet, `A1:${columnLetter(cols - 1)}${rows}`);
    // Redraw only when something changed: a cell's value, a sheet, the selection.
    const fullKey = key + JSON.stringify(cells);
    if (fullKey === lastKey) return;
    lastKey = fullKey;

    tabs.replaceChildren(
      ...sheets.map((s) => {
        const b = el("button", {
          role: "tab",
          "aria-selected": String(s.name === sheet),
          "data-testid": `wb-tab-${s.name}`,
        });
        b.textContent = s.name;
        b.addEventListener("click", () => {
          sheet = s.name;
          excel.select(sheet, "A1");
          selected = "A1";
          lastKey = "";
          draw();
        });
        return b;
      }),
    );

    const table = el("table", { class: "wb-table" });
    const head = el("tr");
    head.append(el("th"));
    for (let c = 0; c < cols; c++) head.append(el("th", {}, columnLetter(c)));
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    cells.forEach((row, r) => {
      const tr = el("tr");
      tr.append(el("th", {}, String(r + 1)));
      row.forEach((cell, c) => {
        const address = `${columnLetter(c)}${r + 1}`;
        const { text, kind } = standInCellText(cell);
        const td = el("td", { "data-kind": kind, "data-address": address }, text);
        if (cell.message) td.title = cell.message;
        else if (text.length > 12) td.title = text;
        if (address === selected) td.setAttribute("data-selected", "true");
        td.addEventListener("click", () => select(address));
        tr.append(td);
      });
      tbody.append(tr);
    });
    table.append(thead, tbody);
    grid.replaceChildren(table);

    const current = excel.read(sheet, selected)[0]?.[0];
    nameBox.value = selected;
    if (document.activeElement !== input) {
      input.value =
        current?.formula ??
        (current?.value === null || current?.value === undefined ? "" : String(current.value));
    }
    // Charts are listed (the stand-in keeps their series, not a drawing); errors with their messages.
    const lines = [
      ...info.charts.map((ch) => `▤ ${ch.title || ch.name}: ${ch.series.join(", ")}`),
      ...(current?.message ? [`${selected}: ${current.message}`] : []),
    ];
    notes.replaceChildren(...lines.map((l) => el("div", {}, l)));
  }

  draw();
  setInterval(draw, REDRAW_MS);
}

const standIn = (window as unknown as { __excelStandIn?: StandIn }).__excelStandIn;
const root = document.getElementById("workbook");
if (standIn && root) mountWorkbookView(root, standIn);
