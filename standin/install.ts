// Installs the Excel stand-in on a page (or Node's global object): the `Excel` global over a fresh
// workbook, a `CustomFunctions` registry, Office.context (display language, requirement sets) and
// the test hooks `__excelStandIn` (STANDIN.md).
import { columnIndex } from "../taskpane/state/a1";
import { formatNumber } from "./cell-display";
import { ErrorCode, StandInError } from "./custom-function-error";
import type { FunctionMetadata, Implementation } from "./evaluate";
import { RequestContext } from "./excel-api";
import { readCellInput } from "./formula-parser";
import { officeDocument } from "./office-document";
import { pageRuntime } from "./page-runtime";
import { shiftSheet } from "./sheet-shift";
import type { StandInCell } from "./standin-engine";
import {
  k,
  parseRef,
  rectAddress,
  shownText,
  Workbook,
  type ChartRecord,
  type StandInConfig,
} from "./workbook-model";
import { openWorkbook, saveWorkbook, type WorkbookSnapshot } from "./workbook-snapshot";

/** The page's options: the stand-in's, and a workbook saved by the `save` hook to open as. */
export type PageConfig = StandInConfig & { workbook?: WorkbookSnapshot };

/** A cell as `read` reports it. */
interface ReadCell {
  value: unknown;
  formula: string | undefined;
  numberFormat: string;
  text: string;
  bold: boolean;
  italic: boolean;
  error: string | undefined;
  message: string | undefined;
}

/** The test hooks (window.__excelStandIn); STANDIN.md lists them. */
export interface StandInHooks {
  select(sheet: string, address: string): void;
  enter(sheet: string, address: string, text: string): void;
  enterAfterSync(sheet: string, address: string, text: string): void;
  /**
   * Runs `typing` (the analyst's `enter` calls, or a calculation finishing) right after the pane's
   * next sync; the pane's batch goes on once a promise it returns settles.
   */
  afterSync(typing: () => unknown): void;
  /** The analyst clicks a sheet's tab: it becomes active and worksheets.onActivated handlers run. */
  activateSheet(sheet: string): Promise<void>;
  /** The charts of a sheet as recorded: type, source, title, series, position (plain copies). */
  charts(sheet: string): ChartRecord[];
  preview(sheet: string, address: string, formula: string): Promise<StandInCell[][] | null>;
  register(
    meta: { id: string; name: string; parameters: FunctionMetadata["parameters"] },
    fn: Implementation,
  ): Promise<void>;
  whenIdle(): Promise<void>;
  read(sheet: string, address: string): ReadCell[][];
  sheets(): {
    name: string;
    visibility: string;
    used: string | null;
    tables: { name: string; address: string }[];
    charts: { name: string; type: string; title: string; series: string[] }[];
  }[];
  activeSheet(): string;
  calculations(): number;
  log: string[];
  functions(): string[];
  /** STANDIN.md "Host calculation model": the workbook as a file keeps it. */
  save(): WorkbookSnapshot;
  host(): "desktop" | "web";
  runtimeStarted(): boolean;
  /** The analyst opens the add-in's pane: the runtime starts (if held) and the pane is shown. */
  openTaskPane(): void;
  customFunctionCalls(): number;
  /** `at`: 1-based row number; `count` rows inserted before it. */
  insertRows(sheet: string, at: number, count: number): void;
  deleteRows(sheet: string, at: number, count: number): void;
  /** `at`: column letters ("C"); `count` columns inserted before it. */
  insertColumns(sheet: string, at: string, count: number): void;
  deleteColumns(sheet: string, at: string, count: number): void;
  /** F9: Application.calculate("Recalculate"). */
  pressF9(): void;
  /** Ctrl+Alt+F9: Application.calculate("Full"). */
  fullCalculation(): void;
}

/** The globals the stand-in sets or patches. */
interface Host {
  __excelStandInConfig?: PageConfig;
  __excelStandIn?: StandInHooks;
  Excel?: unknown;
  CustomFunctions?: unknown;
  Office?: unknown;
}

function versionAtLeast(have: string, want: string | undefined): boolean {
  const a = String(have).split(".").map(Number);
  const b = String(want ?? "1.1")
    .split(".")
    .map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** The `CustomFunctions` global: associate records into the workbook's registry. */
function installCustomFunctions(
  host: Host,
  registry: Map<string, Implementation>,
  onAssociate: () => void,
): void {
  const associate = (id: string | Record<string, Implementation>, fn?: Implementation): void => {
    if (typeof id === "string") {
      if (fn) registry.set(id.toUpperCase(), fn);
    } else for (const [key, f] of Object.entries(id)) registry.set(key.toUpperCase(), f);
  };
  const cf: Record<string, unknown> = { Error: StandInError, ErrorCode };
  // office.js (loaded by the page after this script) assigns its own CustomFunctions.associate, which
  // only records into its table: keep capturing, and pass each association on to it as well.
  let officeAssociate: ((...args: unknown[]) => unknown) | undefined;
  Object.defineProperty(cf, "associate", {
    configurable: true,
    enumerable: true,
    get() {
      return (id: string | Record<string, Implementation>, fn?: Implementation): void => {
        associate(id, fn);
        onAssociate();
        officeAssociate?.call(cf, id, fn);
      };
    },
    set(fn: (...args: unknown[]) => unknown) {
      officeAssociate = fn;
    },
  });
  host.CustomFunctions = cf;
}

/**
 * Office.context's display language and requirement sets (where office.js left them unset), and
 * the document's Office parts (office-document.ts, in place of office.js's, which need a host),
 * patched into whatever office.js assigns.
 */
function installOfficeContext(
  host: Host,
  contextPatch: Record<string, unknown>,
  forced: { context: Record<string, unknown>; office: Record<string, unknown> },
): void {
  const patch = (office: unknown): void => {
    if (!office || typeof office !== "object") return;
    const o = office as { context?: Record<string, unknown> } & Record<string, unknown>;
    if (!o.context || typeof o.context !== "object") o.context = {};
    const context = o.context;
    for (const [key, value] of Object.entries(contextPatch))
      if (context[key] === undefined) context[key] = value;
    // Defined, not assigned: office.js may give these as getters without a setter.
    const force = (target: Record<string, unknown>, entries: Record<string, unknown>): void => {
      for (const [key, value] of Object.entries(entries))
        if (target[key] !== value)
          Object.defineProperty(target, key, { value, configurable: true, writable: true });
    };
    force(context, forced.context);
    force(o, forced.office);
  };
  // office.js assigns the Office global when it loads: patch whatever it assigns.
  let officeValue = host.Office;
  Object.defineProperty(host, "Office", {
    configurable: true,
    get() {
      patch(officeValue);
      return officeValue;
    },
    set(v: unknown) {
      officeValue = v;
    },
  });
}

/**
 * Installs a fresh stand-in workbook (one sheet, "Sheet1") on `host` (a page's window, or Node's
 * global object in a unit test) and returns its test hooks.
 * @example const excel = installExcelStandIn(globalThis, {}); excel.enter("Sheet1", "A1", "=1+1");
 */
export function installExcelStandIn(host: Host, config: PageConfig | undefined): StandInHooks {
  const cfg = config ?? {};
  const requirementSets = cfg.requirementSets ?? {
    ExcelApi: "1.16",
    CustomFunctionsRuntime: "1.4",
    SharedRuntime: "1.1",
  };
  const isSetSupported = (name: string, version?: string): boolean => {
    const have = Object.prototype.hasOwnProperty.call(requirementSets, name)
      ? requirementSets[name]
      : undefined;
    return have !== undefined && versionAtLeast(have, version);
  };
  const wb = new Workbook(cfg, isSetSupported);
  const hostKind = cfg.host ?? "desktop";
  // STANDIN.md "Host calculation model": a saved workbook opens with its saved values; the
  // runtime starts at open on the web, or on the desktop when the document's startup behaviour is
  // Load; the pane is not shown until the analyst opens it.
  const saved = cfg.workbook ? openWorkbook(wb, cfg.workbook) : undefined;
  const office = officeDocument(hostKind, saved);
  const runtime = pageRuntime(typeof document === "undefined" ? undefined : document, {
    hold: saved !== undefined && hostKind === "desktop" && saved.startupBehavior !== "Load",
    hidePane: saved !== undefined,
  });
  let announceRegistered: () => void = () => undefined;
  const registered = new Promise<void>((resolve) => {
    announceRegistered = resolve;
  });
  let associated = false;
  const onAssociate = (): void => {
    if (associated) return;
    associated = true;
    // Every association of the functions file runs in one turn: the open's calculation after it.
    setTimeout(() => {
      if (saved) {
        wb.log.push(
          hostKind === "web" ? "open: every custom function" : "open: volatile functions",
        );
        wb.recalculate(hostKind === "web" ? "custom" : "volatile");
      }
      announceRegistered();
    }, 0);
  };
  // A calculation that needs a custom function starts a held runtime (its functions are there).
  wb.runtimeReady = () => {
    runtime.start();
    return registered;
  };

  installCustomFunctions(host, wb.registry, onAssociate);
  installOfficeContext(
    host,
    { displayLanguage: cfg.displayLanguage ?? "ja-JP", requirements: { isSetSupported } },
    {
      context: { platform: office.platform, document: office.document },
      office: {
        addin: { ...office.addin, showAsTaskpane: async () => hooks.openTaskPane() },
        StartupBehavior: { load: "Load", none: "None" },
      },
    },
  );
  host.Excel = {
    run<T>(batch: (ctx: RequestContext) => T | Promise<T>): Promise<T> {
      const ctx = new RequestContext(wb);
      return Promise.resolve().then(() => batch(ctx));
    },
    RequestContext,
  };

  const hooks: StandInHooks = {
    select(sheet, address) {
      wb.activeSheet = wb.sheetOrThrow(sheet);
      wb.selection = { sheet, address };
    },
    /** Types into a cell as a user would (formula or value). */
    enter(sheet, address, text) {
      const s = wb.sheetOrThrow(sheet);
      const ref = parseRef(address);
      // Typed digits are a number unless the cell is formatted as Text ("@"), as in Excel.
      const format = s.cells.get(k(ref.top, ref.left))?.numberFormat ?? s.colFormats.get(ref.left);
      const typed = readCellInput(String(text));
      if (typed.kind === "constant" && typeof typed.value === "number" && format !== "@")
        wb.setValue(s, ref.top, ref.left, typed.value);
      else wb.setValue(s, ref.top, ref.left, text);
    },
    /**
     * The analyst types into a cell (as `enter`) right after the pane's next sync, before its next
     * batch runs: what happens when an Excel batch is held while a cell is being edited.
     */
    enterAfterSync(sheet, address, text) {
      wb.sheetOrThrow(sheet);
      hooks.afterSync(() => hooks.enter(sheet, address, text));
    },
    afterSync(typing) {
      wb.typingAfterSync.push(typing);
    },
    async activateSheet(sheet) {
      wb.activeSheet = wb.sheetOrThrow(sheet);
      wb.selection = { sheet, address: "A1" };
      for (const handler of [...wb.activatedHandlers])
        await handler({ worksheetId: sheet, type: "WorksheetActivated" });
    },
    charts: (sheet) => JSON.parse(JSON.stringify(wb.sheetOrThrow(sheet).charts)) as ChartRecord[],
    /**
     * Calculates a formula as Excel's formula value preview does (invocation.isInValuePreview
     * true) without writing it anywhere; resolves to its cells.
     */
    preview(sheet, address, formula) {
      const s = wb.sheetOrThrow(sheet);
      const ref = parseRef(address);
      return wb.preview(s, { row: ref.top, col: ref.left }, formula);
    },
    /**
     * Adds a function for a test (e.g. one that reports the arguments it received): its
     * functions.json-style metadata and implementation, callable as =KAISHA.<ID>(…).
     */
    async register(meta, fn) {
      const m = await wb.metadata();
      m.functions.set(meta.id.toUpperCase(), meta);
      wb.registry.set(meta.id.toUpperCase(), fn);
      onAssociate();
    },
    /** Resolves when every calculation started so far has settled. */
    async whenIdle() {
      await Promise.all([...wb.pending]);
      if (wb.pending.size) await hooks.whenIdle();
    },
    /** A plain snapshot of a block of cells. */
    read(sheet, address) {
      const s = wb.sheetOrThrow(sheet);
      const ref = parseRef(address);
      const out: ReadCell[][] = [];
      for (let r = ref.top; r <= ref.bottom; r++) {
        const row: ReadCell[] = [];
        for (let c = ref.left; c <= ref.right; c++) {
          const own = s.cells.get(k(r, c));
          const v = wb.cellValue(s, r, c);
          const shownFormat = wb.shownFormat(s, r, c);
          row.push({
            value: v.value,
            formula: own?.formula,
            numberFormat: shownFormat,
            // What the cell shows (Range.text): a number in its number format.
            text:
              typeof v.value === "number" ? formatNumber(v.value, shownFormat) : shownText(v.value),
            bold: !!own?.format?.["bold"],
            italic: !!own?.format?.["italic"],
            error: v.error,
            message: v.message,
          });
        }
        out.push(row);
      }
      return out;
    },
    sheets() {
      return wb.sheets.map((s) => {
        const used = wb.usedBox(s, true);
        return {
          name: s.name,
          visibility: s.visibility,
          used: used ? rectAddress(used) : null,
          tables: s.tables.map((t) => ({ name: t.name, address: rectAddress(t.rect) })),
          charts: s.charts.map((c) => ({
            name: c.name,
            type: c.type,
            title: c.titleFormula ? wb.titleFromCell(s, c.titleFormula) : c.title,
            series: c.series.map((q) => q.name),
          })),
        };
      });
    },
    activeSheet: () => wb.activeSheet.name,
    calculations: () => wb.calcCount,
    log: wb.log,
    functions: () => [...wb.registry.keys()],
    save: () => saveWorkbook(wb, office.state()),
    host: () => hostKind,
    runtimeStarted: () => runtime.started(),
    openTaskPane() {
      runtime.start();
      runtime.showPane();
      office.showPane();
    },
    customFunctionCalls: () => wb.customFunctionCalls(),
    insertRows: (sheet, at, count) =>
      shiftSheet(wb, wb.sheetOrThrow(sheet), { axis: "row", at: at - 1, count }),
    deleteRows: (sheet, at, count) =>
      shiftSheet(wb, wb.sheetOrThrow(sheet), { axis: "row", at: at - 1, count: -count }),
    insertColumns: (sheet, at, count) =>
      shiftSheet(wb, wb.sheetOrThrow(sheet), { axis: "col", at: columnIndex(at), count }),
    deleteColumns: (sheet, at, count) =>
      shiftSheet(wb, wb.sheetOrThrow(sheet), { axis: "col", at: columnIndex(at), count: -count }),
    pressF9() {
      wb.log.push("F9");
      wb.recalculate("volatile");
    },
    fullCalculation() {
      wb.log.push("Ctrl+Alt+F9");
      wb.recalculate("custom");
    },
  };
  host.__excelStandIn = hooks;
  return hooks;
}
