// The Excel stand-in's workbook: sheets of cells, formulas calculated by the shared engine
// (standin-engine.ts), spills and #SPILL!, recalculation of dependents, and what a cell shows.
// The Excel JavaScript API (excel-api.ts) and the test hooks (install.ts) both work on it.
import { columnIndex, columnLetter, qualify } from "../taskpane/state/a1";
import type { DataTypeArguments } from "./cell-display";
import type { FunctionMetadata, Implementation } from "./evaluate";
import { readCellInput, referencedCells, type CellPosition } from "./formula-parser";
import { evaluateStandInFormula, type StandInCell } from "./standin-engine";

export const MAX_ROWS = 1048576;
export const MAX_COLS = 16384;

/** A block of cells, 0-based and inclusive. */
export interface Rect {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** An address read by `parseRef`: its sheet when it names one. */
export interface Ref extends Rect {
  sheet: string | undefined;
}

/**
 * Options of the stand-in (window.__excelStandInConfig, `standIn` in the e2e harness's openPage);
 * the saved workbook to open is install.ts's (PageConfig), as workbook-snapshot.ts builds on this.
 */
export interface StandInConfig {
  displayLanguage?: string;
  requirementSets?: Record<string, string>;
  dataTypeArguments?: DataTypeArguments;
  emptyArgument?: "null" | "zero";
  /** Which Excel's calculation model (STANDIN.md "Host calculation model"). @default "desktop" */
  host?: "desktop" | "web";
  /**
   * A host whose valuesAsJson gives an error cell's message as `errorMessage` (STANDIN.md
   * "valuesAsJson of an error"). @default false
   */
  errorMessages?: boolean;
}

/** What a cell holds of its own (a value or a formula, its number format and font). */
export interface CellRecord {
  value: unknown;
  formula?: string;
  numberFormat?: string;
  format?: Record<string, unknown>;
}

/** A formula's calculation: its result (a grid, spilled from its cell) and whether it is blocked. */
export interface Anchor {
  row: number;
  col: number;
  formula: string;
  result: StandInCell[][] | undefined;
  blocked: boolean;
  cancel(): void;
}

export interface TableRecord {
  name: string;
  sheet: SheetRecord;
  rect: Rect;
  hasHeaders?: boolean;
}

export interface SeriesRecord {
  name: string;
  x?: string;
  values?: string;
  /** ChartSeries.axisGroup as set ("Primary" / "Secondary"; ExcelApi 1.8). */
  axisGroup?: unknown;
}

/** A worksheets.onActivated handler (Excel.WorksheetActivatedEventArgs). */
export type ActivatedHandler = (event: { worksheetId: string; type: string }) => Promise<unknown>;

export interface ChartRecord {
  name: string;
  type: string;
  source: string;
  seriesBy: unknown;
  series: SeriesRecord[];
  title: string;
  titleFormula?: string | undefined;
  legend?: unknown;
  reversed?: unknown;
  position?: string;
}

export interface SheetRecord {
  name: string;
  cells: Map<string, CellRecord>;
  colFormats: Map<number, string>;
  tables: TableRecord[];
  charts: ChartRecord[];
  visibility: string;
  anchors: Map<string, Anchor>;
}

/** An error as Excel's JavaScript API throws it (`RichApi.Error` with a `code`). */
export function excelError(code: string, message: string): Error & { code: string } {
  const err = new Error(message) as Error & { code: string };
  err.name = "RichApi.Error";
  err.code = code;
  return err;
}

function cellName(r: number, c: number): string {
  return columnLetter(c) + (r + 1);
}

/** "Sheet1!A1:B2" | "A1" | "B:B" | "3:5" -> its sheet (when named) and rectangle. */
export function parseRef(address: string): Ref {
  const bang = address.lastIndexOf("!");
  const sheet =
    bang >= 0
      ? address
          .slice(0, bang)
          .replace(/^'(.*)'$/, "$1")
          .replace(/''/g, "'")
      : undefined;
  const body = (bang >= 0 ? address.slice(bang + 1) : address).replace(/\$/g, "").toUpperCase();
  const parts = body.split(":");
  const a = parts[0] ?? "";
  const b = parts[1] ?? a;
  if (/^[A-Z]+$/.test(a) && /^[A-Z]+$/.test(b)) {
    const [l, r] = [columnIndex(a), columnIndex(b)];
    return { sheet, top: 0, bottom: MAX_ROWS - 1, left: Math.min(l, r), right: Math.max(l, r) };
  }
  if (/^[0-9]+$/.test(a) && /^[0-9]+$/.test(b)) {
    return {
      sheet,
      left: 0,
      right: MAX_COLS - 1,
      top: Math.min(+a, +b) - 1,
      bottom: Math.max(+a, +b) - 1,
    };
  }
  const m1 = /^([A-Z]+)([0-9]+)$/.exec(a);
  const m2 = /^([A-Z]+)([0-9]+)$/.exec(b);
  if (!m1 || !m2) throw excelError("InvalidArgument", "Invalid address: " + address);
  const r1 = Number(m1[2]) - 1;
  const r2 = Number(m2[2]) - 1;
  const c1 = columnIndex(m1[1] ?? "A");
  const c2 = columnIndex(m2[1] ?? "A");
  return {
    sheet,
    top: Math.min(r1, r2),
    bottom: Math.max(r1, r2),
    left: Math.min(c1, c2),
    right: Math.max(c1, c2),
  };
}

export function rectAddress(rect: Rect): string {
  const a = cellName(rect.top, rect.left);
  if (rect.top === 0 && rect.bottom === MAX_ROWS - 1)
    return columnLetter(rect.left) + ":" + columnLetter(rect.right);
  return rect.top === rect.bottom && rect.left === rect.right
    ? a
    : a + ":" + cellName(rect.bottom, rect.right);
}

/** "Sheet1!A1:B2", the sheet quoted when its name needs it. */
export function qualifiedAddress(sheet: SheetRecord, rect: Rect): string {
  return qualify(sheet.name, rectAddress(rect));
}

export function overlaps(a: Rect, b: Rect): boolean {
  return !(a.bottom < b.top || a.top > b.bottom || a.right < b.left || a.left > b.right);
}

/** The key of a cell in a sheet's maps. */
export function k(r: number, c: number): string {
  return r + "," + c;
}

/** A key back to its row and column. */
export function rowCol(key: string): [number, number] {
  const [r, c] = key.split(",").map(Number);
  return [r ?? 0, c ?? 0];
}

/**
 * The format a cell of its own gives its display: none when it is General, the format of a cell
 * never formatted, in which a function's formatted number shows its own format (STANDIN.md,
 * "Dates"; a KAISHA cell typed into a fresh cell shows its value's format).
 */
export function shownOwnFormat(own: CellRecord | undefined): string | undefined {
  const f = own?.numberFormat;
  return f && !/^general$/i.test(f) ? f : undefined;
}

/** What a cell that holds no number shows: a boolean as Excel writes it (TRUE, FALSE). */
export function shownText(value: unknown): string {
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

/** A recalculation chain (A feeds B feeds A…) stops after this many steps. */
const MAX_CHAIN = 8;

interface Metadata {
  functions: Map<string, FunctionMetadata>;
  allowCustomData: boolean;
}

/** The custom functions a formula calls, by id (upper case, without the KAISHA. prefix). */
function customFunctionIds(formula: string): string[] {
  // Outside string literals: a quoted "KAISHA.X(" is text, not a call.
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""');
  return [...code.matchAll(/KAISHA\.([A-Z0-9_.]+)\s*\(/gi)].map((m) => (m[1] ?? "").toUpperCase());
}

/** True when a formula calls a custom function (a cell Excel hands to the add-in). */
function callsCustomFunction(formula: string): boolean {
  return customFunctionIds(formula).length > 0;
}

/**
 * CustomFunctions.associate's table; every implementation handed to the engine counts its calls
 * (`customFunctionCalls`: what the host asked of the add-in).
 */
class CountingRegistry extends Map<string, Implementation> {
  calls = 0;

  override get(id: string): Implementation | undefined {
    const fn = super.get(id);
    if (!fn) return undefined;
    return (...args: unknown[]) => {
      this.calls++;
      return fn(...args);
    };
  }
}

/** Which cells a calculation request calls again (STANDIN.md "Host model"). */
export type CalculationScope =
  /** every cell with a custom function (full calculation, insert/delete, the web's open) */
  | "custom"
  /** only cells of volatile custom functions (F9, open) */
  | "volatile";

/** The workbook and everything calculated in it (one per page). */
export class Workbook {
  readonly cfg: StandInConfig;
  sheets: SheetRecord[] = [];
  activeSheet: SheetRecord;
  selection = { sheet: "Sheet1", address: "A1" };
  tableSeq = 0;
  chartSeq = 0;
  /** Calculations under way (whenIdle waits for them). */
  readonly pending = new Set<Promise<void>>();
  /** KAISHA calculations made (what a recalculation costs the add-in). */
  calcCount = 0;
  /** What the pane asked of the workbook besides cells ("calculate Full", "autofit …"). */
  readonly log: string[] = [];
  /** CustomFunctions.associate's table: implementations by id (upper case). */
  readonly registry = new CountingRegistry();
  /** Counts context.sync() calls: a proxy made since the last one has no isNullObject yet. */
  syncGen = 0;
  /** The analyst's typing a test queued for after the pane's next sync (enterAfterSync). */
  readonly typingAfterSync: (() => unknown)[] = [];
  /** worksheets.onActivated's handlers (excel-api.ts WorksheetCollection). */
  readonly activatedHandlers = new Set<ActivatedHandler>();
  /**
   * Resolves when the add-in's functions can be called: a held runtime is started first
   * (install.ts; a calculation that needs a custom function starts it).
   */
  runtimeReady: () => Promise<void> = () => Promise.resolve();
  private metadataPromise: Promise<Metadata> | undefined;
  private readonly readsByFormula = new Map<string, { from: CellPosition; to: CellPosition }[]>();

  constructor(
    cfg: StandInConfig,
    private readonly isSetSupported: (name: string, version?: string) => boolean,
  ) {
    this.cfg = cfg;
    this.activeSheet = this.newSheet("Sheet1");
  }

  newSheet(name: string): SheetRecord {
    const s = Workbook.blankSheet(name);
    this.sheets.push(s);
    return s;
  }

  static blankSheet(name: string): SheetRecord {
    return {
      name,
      cells: new Map(),
      colFormats: new Map(),
      tables: [],
      charts: [],
      visibility: "Visible",
      anchors: new Map(),
    };
  }

  findSheet(name: string): SheetRecord | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  sheetOrThrow(name: string): SheetRecord {
    const s = this.findSheet(name);
    if (!s) throw excelError("ItemNotFound", "The requested resource doesn't exist: sheet " + name);
    return s;
  }

  allTables(): TableRecord[] {
    return this.sheets.flatMap((s) => s.tables);
  }

  /** A chart title set by formula (`Sheet!$A$1`): what that cell shows now. */
  titleFromCell(home: SheetRecord, ref: string): string {
    const at = parseRef(ref);
    const s = at.sheet === undefined ? home : this.findSheet(at.sheet);
    if (!s) return "#REF!";
    const v = this.cellValue(s, at.top, at.left);
    return v.value === null || v.value === undefined ? "" : String(v.value);
  }

  /** The formula anchor whose current spill covers (r, c), if any (not its own cell). */
  private spillAt(s: SheetRecord, r: number, c: number): Anchor | undefined {
    for (const a of s.anchors.values()) {
      const first = a.result?.[0];
      if (!a.result || !first || a.blocked) continue;
      const inside =
        r >= a.row && c >= a.col && r < a.row + a.result.length && c < a.col + first.length;
      if (inside && !(r === a.row && c === a.col)) return a;
    }
    return undefined;
  }

  /** What a cell shows: its formula's result (spilled values included), its value, or empty. */
  cellValue(s: SheetRecord, r: number, c: number): StandInCell {
    const own = s.cells.get(k(r, c));
    const anchor = s.anchors.get(k(r, c));
    if (own && own.formula !== undefined && anchor) {
      if (anchor.blocked) return { value: "#SPILL!", error: "Spill" };
      const first = anchor.result?.[0]?.[0];
      if (!first) return { value: "#BUSY!", error: "Busy" };
      return first;
    }
    // A formula not calculated yet (every formula is an anchor once written).
    if (own && typeof own.formula === "string") return { value: "#BUSY!", error: "Busy" };
    // A cell with only a format is empty: a spill shows through it, as in Excel.
    const holds = own && own.value !== "" && own.value !== undefined;
    if (own && holds) return withFormat({ value: own.value }, own.numberFormat);
    const sp = this.spillAt(s, r, c);
    const spilled = sp?.result?.[r - sp.row]?.[c - sp.col];
    if (spilled) return spilled;
    return own ? withFormat({ value: "" }, own.numberFormat) : { value: "" };
  }

  /** The number format a cell shows its value in. */
  shownFormat(s: SheetRecord, r: number, c: number): string {
    const own = s.cells.get(k(r, c));
    return (
      shownOwnFormat(own) ??
      this.cellValue(s, r, c).numberFormat ??
      s.colFormats.get(c) ??
      "General"
    );
  }

  /** True when a rectangle overlaps one of the sheet's tables. */
  private touchesTable(s: SheetRecord, area: Rect): boolean {
    return s.tables.some((t) => overlaps(area, t.rect));
  }

  /** The cells an anchor's result would cover. */
  private static resultArea(a: Anchor): Rect {
    const rows = a.result?.length ?? 1;
    const cols = a.result?.[0]?.length ?? 1;
    return { top: a.row, left: a.col, bottom: a.row + rows - 1, right: a.col + cols - 1 };
  }

  /** Re-checks which spills are blocked after any write. */
  relayout(s: SheetRecord): void {
    // STANDIN.md "#SPILL!": a spill may not cover another formula's spill; the earlier keeps it.
    const taken: Rect[] = [];
    for (const a of s.anchors.values()) {
      if (!a.result) continue;
      const area = Workbook.resultArea(a);
      // STANDIN.md "#SPILL!": spilled arrays are not supported in Excel tables, nor spill into one.
      const multi = area.bottom > area.top || area.right > area.left;
      let blocked = multi && this.touchesTable(s, area);
      for (let r = area.top; r <= area.bottom && !blocked; r++) {
        for (let c = area.left; c <= area.right; c++) {
          if (r === a.row && c === a.col) continue;
          const own = s.cells.get(k(r, c));
          if (own && (own.value !== "" || own.formula !== undefined)) {
            blocked = true;
            break;
          }
        }
      }
      if (!blocked && multi) blocked = taken.some((t) => overlaps(area, t));
      a.blocked = blocked;
      if (!blocked) taken.push(area);
    }
  }

  /** functions.json: the functions by id and whether `any` parameters take data types. */
  metadata(): Promise<Metadata> {
    this.metadataPromise ??= fetch("functions.json")
      .then(
        (r) =>
          r.json() as Promise<{
            functions?: FunctionMetadata[];
            allowCustomDataForDataTypeAny?: boolean;
          }>,
      )
      .then((j) => ({
        functions: new Map((j.functions ?? []).map((f) => [f.id.toUpperCase(), f])),
        allowCustomData: j.allowCustomDataForDataTypeAny === true,
      }))
      .catch(() => ({ functions: new Map<string, FunctionMetadata>(), allowCustomData: false }));
    return this.metadataPromise;
  }

  /**
   * STANDIN.md "Data-type arguments": rich values reach `any` parameters only when functions.json
   * allows custom data and the host has CustomFunctionsRuntime 1.4.
   */
  dataTypeMode(meta: Metadata): DataTypeArguments {
    if (!meta.allowCustomData) return "off";
    if (!this.isSetSupported("CustomFunctionsRuntime", "1.4")) return "off";
    return this.cfg.dataTypeArguments ?? "all";
  }

  /** The cell rectangles a formula reads, [] when it cannot be parsed (remembered per text). */
  private formulaReads(formula: string): { from: CellPosition; to: CellPosition }[] {
    const known = this.readsByFormula.get(formula);
    if (known) return known;
    let reads: { from: CellPosition; to: CellPosition }[];
    try {
      const input = readCellInput(formula);
      reads = input.kind === "formula" ? referencedCells(input.expr) : [];
    } catch {
      reads = [];
    }
    this.readsByFormula.set(formula, reads);
    return reads;
  }

  /**
   * STANDIN.md "Recalculation": like Excel's dependency tree, a formula that reads a cell of
   * `area` is calculated again when that area's values change (a spill arrives, a value is typed).
   */
  recalcDependents(s: SheetRecord, area: Rect, depth: number, except: string): void {
    if (depth > MAX_CHAIN) return;
    // Every formula cell has its anchor (writeCell, restoreResult): walking the anchors, not
    // every cell, keeps a write of many plain values (a 12,000-row table) linear.
    for (const key of s.anchors.keys()) {
      const cell = s.cells.get(key);
      if (typeof cell?.formula !== "string" || key === except) continue;
      const reads = this.formulaReads(cell.formula).some((ref) =>
        overlaps(
          { top: ref.from.row, left: ref.from.col, bottom: ref.to.row, right: ref.to.col },
          area,
        ),
      );
      if (!reads) continue;
      const [r, c] = rowCol(key);
      void this.evaluateAnchor(s, r, c, { depth: depth + 1 });
    }
  }

  /** The cells an anchor's current result covers (its own cell when it has none or is blocked). */
  private static anchorArea(a: Anchor): Rect {
    if (!a.result || a.blocked) return { top: a.row, left: a.col, bottom: a.row, right: a.col };
    return Workbook.resultArea(a);
  }

  /** The arguments of the shared engine for a formula at (r, c) of `s`. */
  private engineInput(s: SheetRecord, at: CellPosition, meta: Metadata) {
    return {
      at,
      sheetName: s.name,
      metadata: meta.functions,
      implementations: this.registry,
      cellAt: (p: CellPosition) => this.cellValue(s, p.row, p.col),
      dataTypeArguments: this.dataTypeMode(meta),
      emptyArgument: this.cfg.emptyArgument === "zero" ? ("zero" as const) : ("null" as const),
    };
  }

  /** Calculates the formula of a cell (again): its result replaces the one before. */
  evaluateAnchor(
    s: SheetRecord,
    r: number,
    c: number,
    options: { depth?: number; valuePreview?: boolean } = {},
  ): Promise<void> {
    const own = s.cells.get(k(r, c));
    const formula = own?.formula;
    if (typeof formula !== "string") return Promise.resolve();
    // STANDIN.md "Cancellation": a new calculation of the cell cancels the one still running.
    s.anchors.get(k(r, c))?.cancel();
    const controller = new AbortController();
    const anchor: Anchor = {
      row: r,
      col: c,
      formula,
      result: undefined,
      blocked: false,
      cancel: () => controller.abort(),
    };
    s.anchors.set(k(r, c), anchor);
    // calculations() counts KAISHA calculations (what a recalculation costs the add-in).
    if (/KAISHA\./i.test(formula)) this.calcCount++;
    const depth = options.depth ?? 0;
    const settle = (grid: StandInCell[][] | null): void => {
      // null: this calculation was superseded before its function was called (STANDIN.md
      // "Cancellation"); the job still settles, so whenIdle does not wait for it.
      if (grid === null || s.anchors.get(k(r, c)) !== anchor) return;
      const before = Workbook.anchorArea(anchor);
      anchor.result = grid;
      this.relayout(s);
      const after = Workbook.anchorArea(anchor);
      this.recalcDependents(
        s,
        {
          top: before.top,
          left: before.left,
          bottom: Math.max(before.bottom, after.bottom),
          right: Math.max(before.right, after.right),
        },
        depth,
        k(r, c),
      );
    };
    const ready = callsCustomFunction(formula) ? this.runtimeReady() : Promise.resolve();
    const job = ready
      .then(() => this.metadata())
      .then((meta) =>
        evaluateStandInFormula({
          ...this.engineInput(s, { row: r, col: c }, meta),
          formula,
          signal: controller.signal,
          valuePreview: options.valuePreview === true,
          onStreamUpdate: settle,
        }),
      )
      .then(settle, (err: unknown) => {
        settle([[{ value: "#VALUE!", error: "Value", message: String(err) }]]);
      });
    this.pending.add(job);
    void job.then(() => this.pending.delete(job));
    return job;
  }

  /**
   * Calculates a formula as Excel's formula value preview does (invocation.isInValuePreview true)
   * without writing it anywhere.
   */
  async preview(
    s: SheetRecord,
    at: CellPosition,
    formula: string,
  ): Promise<StandInCell[][] | null> {
    await this.runtimeReady();
    const meta = await this.metadata();
    return evaluateStandInFormula({
      ...this.engineInput(s, at, meta),
      formula,
      signal: new AbortController().signal,
      valuePreview: true,
    });
  }

  /** Calls of custom function implementations so far (cells, recalculation, value preview). */
  customFunctionCalls(): number {
    return this.registry.calls;
  }

  /**
   * Calculates again the cells with custom functions in `scope` (STANDIN.md "Host model"), on the
   * given sheets (every sheet by default) and within `within` when given.
   */
  recalculate(scope: CalculationScope, sheets: SheetRecord[] = this.sheets, within?: Rect): void {
    const run = (volatile: ReadonlySet<string>): void => {
      for (const s of sheets) {
        for (const [key, cell] of s.cells) {
          if (typeof cell.formula !== "string") continue;
          const ids = customFunctionIds(cell.formula);
          if (ids.length === 0) continue;
          if (scope === "volatile" && !ids.some((id) => volatile.has(id))) continue;
          const [r, c] = rowCol(key);
          if (within && !overlaps({ top: r, left: c, bottom: r, right: c }, within)) continue;
          void this.evaluateAnchor(s, r, c);
        }
      }
    };
    if (scope === "custom") {
      run(new Set());
      return;
    }
    // Which functions are volatile is in functions.json (options.volatile).
    const job = this.metadata().then((meta) => {
      const volatile = new Set<string>();
      for (const [id, f] of meta.functions) if (f.options?.volatile === true) volatile.add(id);
      run(volatile);
    });
    this.pending.add(job);
    void job.then(() => this.pending.delete(job));
  }

  /** A saved formula's result, shown as saved until something calculates the cell again. */
  restoreResult(s: SheetRecord, r: number, c: number, result: StandInCell[][] | undefined): void {
    const formula = s.cells.get(k(r, c))?.formula;
    if (typeof formula !== "string") return;
    s.anchors.set(k(r, c), { row: r, col: c, formula, result, blocked: false, cancel: () => {} });
  }

  /** Writes what a cell holds; undefined in `patch` removes that part. */
  writeCell(
    s: SheetRecord,
    r: number,
    c: number,
    patch: { [P in keyof CellRecord]?: CellRecord[P] | undefined },
  ): void {
    const key = k(r, c);
    const cell: CellRecord = s.cells.get(key) ?? { value: "" };
    for (const [p, v] of Object.entries(patch) as [keyof CellRecord, unknown][]) {
      if (v === undefined && p !== "value") delete cell[p];
      else (cell as unknown as Record<string, unknown>)[p] = v;
    }
    const empty =
      (cell.value === "" || cell.value === undefined) &&
      cell.formula === undefined &&
      !cell.numberFormat &&
      !cell.format;
    if (empty) s.cells.delete(key);
    else s.cells.set(key, cell);
    if (!("formula" in patch)) return;
    if (typeof cell.formula === "string") {
      // Every formula is calculated by the engine (KAISHA calls, Excel's functions, operators).
      void this.evaluateAnchor(s, r, c);
    } else {
      s.anchors.get(key)?.cancel();
      s.anchors.delete(key);
    }
    this.relayout(s);
    // A typed value (or a cleared cell) changes what formulas reading it calculate.
    if (typeof cell.formula !== "string")
      this.recalcDependents(s, { top: r, left: c, bottom: r, right: c }, 0, key);
  }

  isTextCell(s: SheetRecord, r: number, c: number): boolean {
    return (s.cells.get(k(r, c))?.numberFormat ?? s.colFormats.get(c)) === "@";
  }

  /**
   * STANDIN.md "Range.values and text": Microsoft's reference for Range.values says a string that
   * starts with "+", "-" or "=" is interpreted as a formula; a cell formatted as Text ("@") keeps it
   * as text. "+x" and "-x" are stored as "=+x" / "=-x" (what Excel's formula bar shows), so the
   * cell no longer reads back as the string written, which is what the tests watch for.
   */
  setValue(s: SheetRecord, r: number, c: number, v: unknown): void {
    // STANDIN.md "Range.values and text": a leading apostrophe is Excel's escape for text; the
    // value keeps the rest (office-js#6687: Range.formulas reads such a cell without it).
    if (typeof v === "string" && v.startsWith("'")) {
      this.writeCell(s, r, c, { value: v.slice(1), formula: undefined });
      return;
    }
    if (typeof v === "string" && /^[=+-]/.test(v) && !this.isTextCell(s, r, c)) {
      this.writeCell(s, r, c, { formula: v.startsWith("=") ? v : "=" + v, value: "" });
      return;
    }
    this.writeCell(s, r, c, { value: v === null || v === undefined ? "" : v, formula: undefined });
  }

  /** The smallest block holding every used cell (within `within` when given), if any. */
  usedBox(s: SheetRecord, valuesOnly: boolean, within?: Rect): Rect | undefined {
    let box: Rect | undefined;
    const add = (r: number, c: number): void => {
      if (within && (r < within.top || r > within.bottom || c < within.left || c > within.right))
        return;
      if (!box) box = { top: r, bottom: r, left: c, right: c };
      else {
        box.top = Math.min(box.top, r);
        box.bottom = Math.max(box.bottom, r);
        box.left = Math.min(box.left, c);
        box.right = Math.max(box.right, c);
      }
    };
    for (const [key, cell] of s.cells) {
      if (
        !valuesOnly ||
        cell.formula !== undefined ||
        (cell.value !== "" && cell.value !== undefined)
      )
        add(...rowCol(key));
    }
    for (const a of s.anchors.values()) {
      if (!a.result || a.blocked) continue;
      const area = Workbook.resultArea(a);
      add(area.bottom, area.right);
    }
    return box;
  }
}

function withFormat(cell: StandInCell, numberFormat: string | undefined): StandInCell {
  return numberFormat === undefined ? cell : { ...cell, numberFormat };
}
