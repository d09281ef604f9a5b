// The Excel stand-in (standin/) opened in Node on a workbook described in a few lines, for the taskpane/excel tests: cells, formulas with the results they showed, spills, tables, the selection, and what the tests read back.

import type { Implementation } from "../../standin/evaluate";
import type { PageConfig as StandInConfig, StandInHooks } from "../../standin/install";
import type { StandInCell } from "../../standin/standin-engine";
import type { ChartRecord } from "../../standin/workbook-model";
import type { WorkbookSnapshot } from "../../standin/workbook-snapshot";
import { columnIndex, columnLetter } from "../../taskpane/state/a1";
import { installExcelStandIn, uninstallExcelStandIn } from "./excel-standin-node";

/**
 * What one cell holds: a constant `value`, or a `formula` showing `value` (an `error` type such as
 * "NotAvailable" with its `message`) or, spilled from it, `spill`, as a saved workbook opens.
 */
export interface CellSpec {
  value?: unknown;
  formula?: string;
  spill?: unknown[][];
  error?: string;
  message?: string;
  format?: string;
}

export interface SheetSpec {
  name: string;
  visibility?: string;
  /** Cells by address ("B2"). */
  cells?: Record<string, CellSpec>;
}

export interface WorkbookSpec {
  sheets: SheetSpec[];
  /** The sheet on screen (default the first). */
  active?: string;
  /** The selected range, with its sheet ("Model!A2:B2"; default A1 of the active sheet). */
  selection?: string;
  tables?: { name: string; address: string }[];
  /** The stand-in's options (requirementSets, errorMessages …). */
  config?: Omit<StandInConfig, "workbook">;
  /** KAISHA functions by id ("FINANCIAL"), called when a formula with them is calculated. */
  functions?: Record<string, Implementation>;
}

/** One cell as the analyst sees it: formula bar content (Range.formulas), value, number format. */
interface ShownCell {
  formula: unknown;
  value: unknown;
  format: unknown;
}

export interface StandInWorkbook {
  hooks: StandInHooks;
  /** What the pane asked of Excel besides cells, in order ("sync", "clear Data!C5:E11 All" …). */
  log: string[];
  /** context.sync() calls so far. */
  syncs(): number;
  cell(sheet: string, address: string): ShownCell;
  /** Range.values / Range.formulas / Range.numberFormat of a block, as the pane would load them. */
  values(sheet: string, address: string): unknown[][];
  formulas(sheet: string, address: string): unknown[][];
  formats(sheet: string, address: string): unknown[][];
  italic(sheet: string, address: string): boolean;
  sheetNames(): string[];
  visibility(sheet: string): string | undefined;
  charts(sheet: string): ChartRecord[];
  tables(sheet: string): { name: string; address: string }[];
  /** The analyst types into a cell (stand-in `enter`). */
  enter(sheet: string, address: string, text: string): void;
  /** Runs `typing` once, right after the pane's next sync (the pane waits for its promise). */
  afterNextSync(typing: () => unknown): void;
  /** The analyst clicks a sheet's tab. */
  activate(sheet: string): Promise<void>;
  /** Resolves when every formula written so far is calculated. */
  whenIdle(): Promise<void>;
}

/** "B2" + (r, c) -> the address r rows down and c columns right. */
function offset(at: string, r: number, c: number): string {
  const m = /^([A-Z]+)(\d+)$/.exec(at);
  if (!m) throw new Error(`not a cell address: ${at}`);
  return `${columnLetter(columnIndex(m[1] ?? "A") + c)}${Number(m[2]) + r}`;
}

/**
 * A block of cells from `at` down and right: each a constant, or (where `formulas` has a string
 * starting with "=") that formula showing the value.
 * @example block("B2", [[2_000_000, 5]], [['=KAISHA.FINANCIAL("7203","sales")', 5]])
 */
export function block(
  at: string,
  values: unknown[][],
  formulas?: unknown[][],
  format?: string,
): Record<string, CellSpec> {
  const out: Record<string, CellSpec> = {};
  values.forEach((row, r) =>
    row.forEach((value, c) => {
      const formula = formulas?.[r]?.[c];
      const cell: CellSpec =
        typeof formula === "string" && formula.startsWith("=") ? { formula, value } : { value };
      if (format !== undefined) cell.format = format;
      out[offset(at, r, c)] = cell;
    }),
  );
  return out;
}

function savedResult(cell: CellSpec): StandInCell[][] {
  if (cell.spill) return cell.spill.map((row) => row.map((value) => ({ value })));
  const one: StandInCell = { value: cell.value ?? "" };
  if (cell.error !== undefined) one.error = cell.error;
  if (cell.message !== undefined) one.message = cell.message;
  return [[one]];
}

/** The description as the saved workbook the stand-in opens (standin/workbook-snapshot.ts). */
function snapshotOf(spec: WorkbookSpec): WorkbookSnapshot {
  const first = spec.sheets[0]?.name ?? "Sheet1";
  const active = spec.active ?? first;
  const [selSheet, selAddress] = spec.selection?.includes("!")
    ? (spec.selection.split("!") as [string, string])
    : [active, spec.selection ?? "A1"];
  return {
    format: "kaisha-standin-workbook/1",
    sheets: spec.sheets.map((s) => ({
      name: s.name,
      visibility: s.visibility ?? "Visible",
      cells: Object.entries(s.cells ?? {}).map(([address, cell]) => ({
        address,
        ...(cell.formula === undefined
          ? { value: cell.value ?? "" }
          : { formula: cell.formula, result: savedResult(cell) }),
        ...(cell.format === undefined ? {} : { numberFormat: cell.format }),
      })),
      columnFormats: [],
      tables: (spec.tables ?? [])
        .filter((t) => t.address.split("!")[0] === s.name)
        .map((t) => ({ name: t.name, address: t.address.split("!")[1] ?? "", hasHeaders: true })),
      charts: [],
    })),
    activeSheet: active,
    selection: { sheet: selSheet, address: selAddress },
    settings: {},
    // The add-in's runtime runs from the start (a workbook whose add-in loads with it).
    startupBehavior: "Load",
  };
}

/**
 * Installs the stand-in as the global `Excel` on the described workbook, its KAISHA functions
 * registered. Uninstall with `closeWorkbook` (afterEach).
 * @example const wb = await openWorkbook({ sheets: [{ name: "Data" }], selection: "Data!B2" });
 */
export async function openWorkbook(spec: WorkbookSpec): Promise<StandInWorkbook> {
  const hooks = installExcelStandIn({ ...spec.config, workbook: snapshotOf(spec) });
  // One repeating parameter: every argument reaches the function, which gets them spread.
  for (const [id, fn] of Object.entries(spec.functions ?? {}))
    await hooks.register(
      { id, name: id, parameters: [{ name: "args", type: "any", repeating: true }] },
      (args) => fn(...(args as unknown[])),
    );
  const read = (sheet: string, address: string) => hooks.read(sheet, address);
  const formulaOf = (c: { formula: string | undefined; value: unknown }) => c.formula ?? c.value;
  return {
    hooks,
    log: hooks.log,
    syncs: () => hooks.log.filter((l) => l === "sync").length,
    cell(sheet, address) {
      const c = read(sheet, address)[0]?.[0];
      if (!c) throw new Error(`no cell ${sheet}!${address}`);
      return { formula: formulaOf(c), value: c.value, format: c.numberFormat };
    },
    values: (sheet, address) => read(sheet, address).map((row) => row.map((c) => c.value)),
    formulas: (sheet, address) => read(sheet, address).map((row) => row.map(formulaOf)),
    formats: (sheet, address) => read(sheet, address).map((row) => row.map((c) => c.numberFormat)),
    italic: (sheet, address) => read(sheet, address)[0]?.[0]?.italic === true,
    sheetNames: () => hooks.sheets().map((s) => s.name),
    visibility: (sheet) => hooks.sheets().find((s) => s.name === sheet)?.visibility,
    charts: (sheet) => hooks.charts(sheet),
    tables: (sheet) => hooks.sheets().find((s) => s.name === sheet)?.tables ?? [],
    enter: (sheet, address, text) => hooks.enter(sheet, address, text),
    afterNextSync: (typing) => hooks.afterSync(typing),
    activate: (sheet) => hooks.activateSheet(sheet),
    whenIdle: () => hooks.whenIdle(),
  };
}

/** Removes the stand-in's globals (afterEach). */
export function closeWorkbook(): void {
  uninstallExcelStandIn();
}
