// The subset of the Excel JavaScript API that taskpane/excel/ uses, over the stand-in's workbook
// (workbook-model.ts): request contexts, load/sync rules, ranges, tables, charts and worksheets.
import { formatNumber } from "./cell-display";
import {
  excelError,
  k,
  MAX_COLS,
  MAX_ROWS,
  overlaps,
  parseRef,
  qualifiedAddress,
  rectAddress,
  rowCol,
  shownOwnFormat,
  shownText,
  Workbook,
  type ChartRecord,
  type Rect,
  type SeriesRecord,
  type ActivatedHandler,
  type SheetRecord,
  type TableRecord,
} from "./workbook-model";

type LoadOption = string | string[] | Record<string, unknown> | undefined;

/** An object of the API: what `load` asked for becomes readable after `context.sync()`. */
class Loadable {
  private pendingProps: string[] = [];
  protected readonly loaded = new Set<string>();
  private readonly born: number;

  constructor(protected readonly ctx: RequestContext) {
    this.born = ctx.wb.syncGen;
    ctx.objects.push(this);
  }

  load(props?: LoadOption): this {
    let list: string[];
    if (typeof props === "string") list = props.split(",");
    else if (Array.isArray(props)) list = props;
    else if (props && typeof props === "object") list = Object.keys(props);
    else list = ["*"];
    for (const p of list) this.pendingProps.push(p.trim().split("/")[0] ?? p);
    return this;
  }

  /** Asked since the last sync (Range.load reads its content copy from it). */
  protected askedSince(index: number): string[] {
    return this.pendingProps.slice(index);
  }

  protected askedCount(): number {
    return this.pendingProps.length;
  }

  /** context.sync(): what was asked is loaded. */
  settleLoads(): void {
    for (const p of this.pendingProps) this.loaded.add(p);
    this.pendingProps = [];
  }

  /** Marks every property loaded (the items of a loaded collection). */
  loadedAll(): this {
    this.loaded.add("*");
    return this;
  }

  protected need(prop: string): void {
    if (!this.loaded.has(prop) && !this.loaded.has("*")) {
      throw excelError(
        "PropertyNotLoaded",
        "The property '" +
          prop +
          "' is not available. Before reading the property's value, call the load method on the containing object and call \"context.sync()\" on the associated request context.",
      );
    }
  }

  protected nullCheck(): void {
    if (this.born === this.ctx.wb.syncGen) {
      throw excelError("PropertyNotLoaded", "isNullObject is not available before context.sync()");
    }
  }
}

/**
 * STANDIN.md "Load/sync": a loaded content property is a copy of what the cells held where the
 * load stands in the batch (the stand-in runs each command as it is queued, so that is now), not
 * a live view: a load queued before a write sees the content before it, and a value loaded in one
 * batch does not show what was typed after it.
 */
const CONTENT = ["values", "formulas", "numberFormat", "valuesAsJson", "text"] as const;
type Content = (typeof CONTENT)[number];

class Range extends Loadable {
  private snap: Partial<Record<Content, unknown[][]>> | undefined;
  readonly format: {
    font: Record<string, unknown>;
    autofitColumns(): void;
    columnWidth: number | undefined;
  };

  constructor(
    ctx: RequestContext,
    readonly sheet: SheetRecord,
    readonly rect: Rect,
    private readonly isNull = false,
  ) {
    super(ctx);
    const log = ctx.wb.log;
    const addr = (): string => this.addr();
    this.format = {
      font: {},
      autofitColumns() {
        log.push("autofit " + addr());
      },
      set columnWidth(w: number | undefined) {
        log.push("columnWidth " + addr() + " " + w);
      },
      get columnWidth(): number | undefined {
        return undefined;
      },
    };
    for (const p of ["bold", "italic", "color", "size", "name"]) {
      Object.defineProperty(this.format.font, p, {
        set: (v: unknown) => {
          this.each((r, c) => {
            const cell = sheet.cells.get(k(r, c)) ?? { value: "" };
            cell.format = { ...cell.format, [p]: v };
            sheet.cells.set(k(r, c), cell);
          });
        },
        get: () => undefined,
      });
    }
  }

  override load(props?: LoadOption): this {
    const before = this.askedCount();
    super.load(props);
    const asked = this.askedSince(before);
    this.snap ??= {};
    for (const p of CONTENT)
      if (asked.includes(p) || asked.includes("*")) this.snap[p] = this.read(p);
    return this;
  }

  /** The content property `p`: its loaded copy, or (written through this proxy since) the cells. */
  private content(p: Content): unknown[][] {
    this.need(p);
    return this.snap?.[p] ?? this.read(p);
  }

  private wrote(p: Content): void {
    if (this.snap) delete this.snap[p];
  }

  addr(): string {
    return qualifiedAddress(this.sheet, this.rect);
  }

  private rows(): number {
    return this.rect.bottom - this.rect.top + 1;
  }

  private cols(): number {
    return this.rect.right - this.rect.left + 1;
  }

  private each(fn: (r: number, c: number) => void): void {
    if (this.rows() * this.cols() > 2000000)
      throw excelError("InvalidArgument", "Range too large for the stand-in: " + this.addr());
    for (let r = this.rect.top; r <= this.rect.bottom; r++)
      for (let c = this.rect.left; c <= this.rect.right; c++) fn(r, c);
  }

  private matrix(fn: (r: number, c: number) => unknown): unknown[][] {
    const out: unknown[][] = [];
    for (let r = this.rect.top; r <= this.rect.bottom; r++) {
      const row: unknown[] = [];
      for (let c = this.rect.left; c <= this.rect.right; c++) row.push(fn(r, c));
      out.push(row);
    }
    return out;
  }

  private assign(
    name: string,
    value: unknown,
    apply: (r: number, c: number, x: unknown) => void,
  ): void {
    const grid: unknown[][] = Array.isArray(value) ? (value as unknown[][]) : [[value]];
    const single = grid.length === 1 && grid[0]?.length === 1;
    const fits =
      grid.length === this.rows() &&
      grid.every((row) => Array.isArray(row) && row.length === this.cols());
    if (!single && !fits) {
      throw excelError(
        "InvalidArgument",
        "The number of rows or columns in the input array doesn't match the size or dimensions of the range (" +
          name +
          " on " +
          this.addr() +
          ").",
      );
    }
    const whole = this.rect.bottom === MAX_ROWS - 1 || this.rect.right === MAX_COLS - 1;
    if (whole) {
      if (name !== "numberFormat")
        throw excelError(
          "InvalidArgument",
          "The stand-in supports only numberFormat on whole columns",
        );
      for (let c = this.rect.left; c <= this.rect.right; c++)
        this.sheet.colFormats.set(c, String(grid[0]?.[0]));
      return;
    }
    const { top, left } = this.rect;
    this.each((r, c) => apply(r, c, single ? grid[0]?.[0] : grid[r - top]?.[c - left]));
  }

  /** What each content property reads from the cells (load copies it; see content). */
  private read(p: Content): unknown[][] {
    const wb = this.ctx.wb;
    const s = this.sheet;
    switch (p) {
      case "values":
        return this.matrix((r, c) => wb.cellValue(s, r, c).value);
      case "formulas":
        return this.matrix((r, c) => {
          const own = s.cells.get(k(r, c));
          if (own && typeof own.formula === "string") return own.formula;
          return wb.cellValue(s, r, c).value;
        });
      case "numberFormat":
        return this.matrix((r, c) => wb.shownFormat(s, r, c));
      case "valuesAsJson":
        return this.matrix((r, c) => {
          const v = wb.cellValue(s, r, c);
          // STANDIN.md "valuesAsJson of an error": a message only where the host gives one.
          if (v.error)
            return {
              type: "Error",
              basicType: "Error",
              basicValue: v.value,
              errorType: v.error,
              ...(wb.cfg.errorMessages && v.message !== undefined
                ? { errorMessage: v.message }
                : {}),
            };
          if (typeof v.value === "number")
            return { type: "Double", basicType: "Double", basicValue: v.value };
          if (typeof v.value === "boolean")
            return { type: "Boolean", basicType: "Boolean", basicValue: v.value };
          if (v.value === "") return { type: "Empty", basicType: "Empty", basicValue: "" };
          return { type: "String", basicType: "String", basicValue: v.value };
        });
      // STANDIN.md "General": Range.text is what the cell shows (11-character General, formats).
      case "text":
        return this.matrix((r, c) => {
          const v = wb.cellValue(s, r, c);
          if (typeof v.value !== "number") return shownText(v.value);
          const own = s.cells.get(k(r, c));
          return formatNumber(
            v.value,
            shownOwnFormat(own) ?? v.numberFormat ?? s.colFormats.get(c),
          );
        });
    }
  }

  get values(): unknown[][] {
    return this.content("values");
  }
  set values(v: unknown) {
    this.wrote("values");
    this.assign("values", v, (r, c, x) => this.ctx.wb.setValue(this.sheet, r, c, x));
  }
  get formulas(): unknown[][] {
    return this.content("formulas");
  }
  set formulas(v: unknown) {
    this.wrote("formulas");
    // Range.formulas follows the same rule as values: a Text cell keeps even "=..." as text.
    this.assign("formulas", v, (r, c, x) => this.ctx.wb.setValue(this.sheet, r, c, x));
  }
  get numberFormat(): unknown[][] {
    return this.content("numberFormat");
  }
  set numberFormat(v: unknown) {
    this.wrote("numberFormat");
    this.assign("numberFormat", v, (r, c, x) =>
      this.ctx.wb.writeCell(this.sheet, r, c, {
        numberFormat: x === undefined ? undefined : String(x),
      }),
    );
  }
  get valuesAsJson(): unknown[][] {
    return this.content("valuesAsJson");
  }
  get text(): unknown[][] {
    return this.content("text");
  }
  get address(): string {
    this.need("address");
    return this.addr();
  }
  get rowCount(): number {
    this.need("rowCount");
    return this.rows();
  }
  get columnCount(): number {
    this.need("columnCount");
    return this.cols();
  }
  get rowIndex(): number {
    this.need("rowIndex");
    return this.rect.top;
  }
  get columnIndex(): number {
    this.need("columnIndex");
    return this.rect.left;
  }
  get isNullObject(): boolean {
    this.nullCheck();
    return this.isNull;
  }

  private at(rect: Rect, isNull = false): Range {
    return new Range(this.ctx, this.sheet, rect, isNull);
  }

  getCell(r: number, c: number): Range {
    const top = this.rect.top + r;
    const left = this.rect.left + c;
    return this.at({ top, left, bottom: top, right: left });
  }

  getResizedRange(dr: number, dc: number): Range {
    const x = this.rect;
    return this.at({ top: x.top, left: x.left, bottom: x.bottom + dr, right: x.right + dc });
  }

  getOffsetRange(dr: number, dc: number): Range {
    const x = this.rect;
    return this.at({
      top: x.top + dr,
      left: x.left + dc,
      bottom: x.bottom + dr,
      right: x.right + dc,
    });
  }

  getRow(i: number): Range {
    const x = this.rect;
    return this.at({ top: x.top + i, bottom: x.top + i, left: x.left, right: x.right });
  }

  getUsedRangeOrNullObject(valuesOnly?: boolean): Range {
    const box = this.ctx.wb.usedBox(this.sheet, !!valuesOnly, this.rect);
    return this.at(box ?? this.rect, !box);
  }

  getSpillingToRangeOrNullObject(): Range {
    const a = this.sheet.anchors.get(k(this.rect.top, this.rect.left));
    const first = a?.result?.[0];
    if (!a?.result || !first || a.blocked) return this.at(this.rect, true);
    return this.at({
      top: a.row,
      left: a.col,
      bottom: a.row + a.result.length - 1,
      right: a.col + first.length - 1,
    });
  }

  clear(applyTo?: string): void {
    const wb = this.ctx.wb;
    const s = this.sheet;
    const what = applyTo ?? "All";
    wb.log.push("clear " + this.addr() + " " + what);
    const x = this.rect;
    const whole = x.bottom === MAX_ROWS - 1 || x.right === MAX_COLS - 1;
    const inside = [...s.cells.keys()]
      .map(rowCol)
      .filter(([r, c]) => r >= x.top && r <= x.bottom && c >= x.left && c <= x.right);
    for (const [r, c] of inside) {
      if (what === "Formats") wb.writeCell(s, r, c, { numberFormat: undefined, format: undefined });
      else if (what === "Contents") wb.writeCell(s, r, c, { value: "", formula: undefined });
      else {
        wb.writeCell(s, r, c, { value: "", formula: undefined });
        s.cells.delete(k(r, c));
      }
    }
    if (whole && what !== "Contents")
      for (let c = x.left; c <= x.right; c++) s.colFormats.delete(c);
    wb.relayout(s);
  }

  select(): void {
    this.ctx.wb.log.push("select " + this.addr());
    this.ctx.wb.selection = { sheet: this.sheet.name, address: rectAddress(this.rect) };
  }

  /** STANDIN.md "Host model": Range.calculate calls the custom functions in the range again. */
  calculate(): void {
    this.ctx.wb.log.push("calculate range " + this.addr());
    this.ctx.wb.recalculate("custom", [this.sheet], this.rect);
  }
}

class Table extends Loadable {
  constructor(
    ctx: RequestContext,
    private readonly t: TableRecord,
    private readonly isNull = false,
  ) {
    super(ctx);
  }

  get name(): string {
    this.need("name");
    return this.t.name;
  }
  set name(v: string) {
    if (this.ctx.wb.allTables().some((t) => t !== this.t && t.name === v))
      throw excelError("InvalidArgument", "A table named " + v + " already exists");
    this.t.name = v;
  }
  get isNullObject(): boolean {
    this.nullCheck();
    return this.isNull;
  }

  getRange(): Range {
    return new Range(this.ctx, this.t.sheet, this.t.rect);
  }

  getDataBodyRange(): Range {
    const x = this.t.rect;
    return new Range(this.ctx, this.t.sheet, {
      top: x.top + 1,
      bottom: Math.max(x.top + 1, x.bottom),
      left: x.left,
      right: x.right,
    });
  }

  getHeaderRowRange(): Range {
    const x = this.t.rect;
    return new Range(this.ctx, this.t.sheet, {
      top: x.top,
      bottom: x.top,
      left: x.left,
      right: x.right,
    });
  }

  delete(): void {
    this.ctx.wb.log.push("delete table " + this.t.name);
    const s = this.t.sheet;
    s.tables = s.tables.filter((t) => t !== this.t);
  }
}

class TableCollection extends Loadable {
  constructor(
    ctx: RequestContext,
    private readonly sheet: SheetRecord | undefined,
  ) {
    super(ctx);
  }

  private list(): TableRecord[] {
    return this.sheet ? this.sheet.tables : this.ctx.wb.allTables();
  }

  get items(): Table[] {
    this.need("items");
    return this.list().map((t) => new Table(this.ctx, t).loadedAll());
  }

  getItem(name: string): Table {
    const t = this.list().find((x) => x.name === name);
    if (!t) throw excelError("ItemNotFound", "The requested resource doesn't exist: table " + name);
    return new Table(this.ctx, t);
  }

  getItemOrNullObject(name: string): Table {
    const t = this.list().find((x) => x.name === name);
    const absent = {
      name,
      sheet: this.ctx.wb.activeSheet,
      rect: { top: 0, left: 0, bottom: 0, right: 0 },
    };
    return new Table(this.ctx, t ?? absent, !t);
  }

  add(address: string | Range, hasHeaders?: boolean): Table {
    const wb = this.ctx.wb;
    const ref = parseRef(typeof address === "string" ? address : address.addr());
    const sheet = this.sheet ?? (ref.sheet ? wb.sheetOrThrow(ref.sheet) : wb.activeSheet);
    if (wb.allTables().some((t) => t.sheet === sheet && overlaps(ref, t.rect)))
      throw excelError("InvalidArgument", "A table can't overlap another table.");
    const t: TableRecord = {
      name: "Table" + ++wb.tableSeq,
      sheet,
      rect: { top: ref.top, bottom: ref.bottom, left: ref.left, right: ref.right },
      hasHeaders: !!hasHeaders,
    };
    sheet.tables.push(t);
    wb.relayout(sheet);
    return new Table(this.ctx, t);
  }
}

/** A chart series' proxy. */
function seriesProxy(ch: ChartRecord, sr: SeriesRecord) {
  return {
    setXAxisValues(range: Range) {
      sr.x = range.addr();
    },
    setValues(range: Range) {
      sr.values = range.addr();
    },
    delete() {
      ch.series = ch.series.filter((q) => q !== sr);
    },
    get name(): string {
      return sr.name;
    },
    set name(v: string) {
      sr.name = v;
    },
    get axisGroup(): unknown {
      return sr.axisGroup;
    },
    set axisGroup(v: unknown) {
      sr.axisGroup = v;
    },
  };
}

class Chart extends Loadable {
  readonly title: { setFormula(formula: string): void; text: string };
  readonly legend: { position: unknown };
  readonly axes: { categoryAxis: { reversePlotOrder: unknown } };
  readonly series: {
    getItemAt(i: number): ReturnType<typeof seriesProxy>;
    add(name: string): ReturnType<typeof seriesProxy>;
  };

  constructor(
    ctx: RequestContext,
    private readonly c: ChartRecord,
    private readonly home: SheetRecord,
  ) {
    super(ctx);
    this.title = {
      // ChartTitle.setFormula (ExcelApi 1.7): the title shows the referenced cell, as it changes.
      setFormula(formula: string) {
        c.titleFormula = String(formula).replace(/^=/, "");
      },
      get text(): string {
        return c.title;
      },
      set text(v: string) {
        c.title = v;
        c.titleFormula = undefined;
      },
    };
    this.legend = {
      get position(): unknown {
        return c.legend;
      },
      set position(v: unknown) {
        c.legend = v;
      },
    };
    this.axes = {
      categoryAxis: {
        get reversePlotOrder(): unknown {
          return c.reversed;
        },
        set reversePlotOrder(v: unknown) {
          c.reversed = v;
        },
      },
    };
    this.series = {
      getItemAt(i: number) {
        const sr = c.series[i];
        if (!sr) throw excelError("ItemNotFound", "No series " + i);
        return seriesProxy(c, sr);
      },
      add(name: string) {
        const sr = { name };
        c.series.push(sr);
        return seriesProxy(c, sr);
      },
    };
  }

  get name(): string {
    this.need("name");
    return this.c.name;
  }
  set name(v: string) {
    this.c.name = v;
  }

  setPosition(start: string | Range): void {
    this.c.position = typeof start === "string" ? start : start.addr();
  }

  delete(): void {
    this.home.charts = this.home.charts.filter((q) => q !== this.c);
  }
}

class ChartCollection extends Loadable {
  constructor(
    ctx: RequestContext,
    private readonly sheet: SheetRecord,
  ) {
    super(ctx);
  }

  get items(): Chart[] {
    this.need("items");
    return this.sheet.charts.map((ch) => new Chart(this.ctx, ch, this.sheet).loadedAll());
  }

  add(type: string, source: Range, seriesBy?: unknown): Chart {
    const ch: ChartRecord = {
      name: "Chart " + ++this.ctx.wb.chartSeq,
      type,
      source: source.addr(),
      seriesBy,
      series: [{ name: "Series1", values: source.addr() }],
      title: "",
    };
    this.sheet.charts.push(ch);
    return new Chart(this.ctx, ch, this.sheet);
  }
}

class Worksheet extends Loadable {
  readonly tables: TableCollection;
  readonly charts: ChartCollection;

  constructor(
    ctx: RequestContext,
    private readonly s: SheetRecord,
    private readonly isNull = false,
  ) {
    super(ctx);
    this.tables = new TableCollection(ctx, s);
    this.charts = new ChartCollection(ctx, s);
  }

  get name(): string {
    this.need("name");
    return this.s.name;
  }
  set name(v: string) {
    this.s.name = v;
  }
  get visibility(): string {
    this.need("visibility");
    return this.s.visibility;
  }
  set visibility(v: string) {
    this.s.visibility = v;
  }
  get isNullObject(): boolean {
    this.nullCheck();
    return this.isNull;
  }

  getRange(address?: string): Range {
    if (address === undefined)
      return new Range(this.ctx, this.s, {
        top: 0,
        left: 0,
        bottom: MAX_ROWS - 1,
        right: MAX_COLS - 1,
      });
    const ref = parseRef(address);
    const s = ref.sheet ? this.ctx.wb.sheetOrThrow(ref.sheet) : this.s;
    return new Range(this.ctx, s, {
      top: ref.top,
      left: ref.left,
      bottom: ref.bottom,
      right: ref.right,
    });
  }

  getRangeByIndexes(r: number, c: number, rows: number, cols: number): Range {
    return new Range(this.ctx, this.s, {
      top: r,
      left: c,
      bottom: r + rows - 1,
      right: c + cols - 1,
    });
  }

  getUsedRangeOrNullObject(valuesOnly?: boolean): Range {
    const box = this.ctx.wb.usedBox(this.s, !!valuesOnly);
    return new Range(this.ctx, this.s, box ?? { top: 0, left: 0, bottom: 0, right: 0 }, !box);
  }

  getUsedRange(valuesOnly?: boolean): Range {
    const box = this.ctx.wb.usedBox(this.s, !!valuesOnly);
    return new Range(this.ctx, this.s, box ?? { top: 0, left: 0, bottom: 0, right: 0 });
  }

  /**
   * STANDIN.md "Host model": markAllDirty true calls every custom function of the sheet again;
   * false calculates as F9 does.
   */
  calculate(markAllDirty: boolean): void {
    this.ctx.wb.log.push("calculate sheet " + this.s.name + (markAllDirty ? " markAllDirty" : ""));
    this.ctx.wb.recalculate(markAllDirty ? "custom" : "volatile", [this.s]);
  }

  activate(): void {
    this.ctx.wb.log.push("activate " + this.s.name);
    this.ctx.wb.activeSheet = this.s;
    this.ctx.wb.selection = { sheet: this.s.name, address: "A1" };
  }

  delete(): void {
    const wb = this.ctx.wb;
    wb.sheets = wb.sheets.filter((x) => x !== this.s);
    if (wb.activeSheet === this.s && wb.sheets[0]) wb.activeSheet = wb.sheets[0];
  }
}

class WorksheetCollection extends Loadable {
  /**
   * STANDIN.md "Worksheet activation": the analyst's `activateSheet` runs the handlers; the
   * event's worksheetId is the sheet's name here, which getItem takes as it takes an id.
   */
  readonly onActivated = {
    add: (handler: ActivatedHandler): { remove(): void } => {
      const handlers = this.ctx.wb.activatedHandlers;
      handlers.add(handler);
      return { remove: () => void handlers.delete(handler) };
    },
  };

  get items(): Worksheet[] {
    this.need("items");
    return this.ctx.wb.sheets.map((s) => new Worksheet(this.ctx, s).loadedAll());
  }

  getActiveWorksheet(): Worksheet {
    return new Worksheet(this.ctx, this.ctx.wb.activeSheet);
  }

  getItem(name: string): Worksheet {
    return new Worksheet(this.ctx, this.ctx.wb.sheetOrThrow(name));
  }

  getItemOrNullObject(name: string): Worksheet {
    const s = this.ctx.wb.findSheet(name);
    return new Worksheet(this.ctx, s ?? Workbook.blankSheet(name), !s);
  }

  add(name?: string): Worksheet {
    const wb = this.ctx.wb;
    const n = name || "Sheet" + (wb.sheets.length + 1);
    if (wb.findSheet(n))
      throw excelError("ItemAlreadyExists", "A sheet named " + n + " already exists");
    return new Worksheet(this.ctx, wb.newSheet(n));
  }
}

/** context.workbook: the collections, the selection and Application of a request context. */
function workbookOf(ctx: RequestContext, wb: Workbook) {
  const selected = (): { s: SheetRecord; ref: Rect } => ({
    s: wb.sheetOrThrow(wb.selection.sheet),
    ref: parseRef(wb.selection.address),
  });
  return {
    worksheets: new WorksheetCollection(ctx),
    tables: new TableCollection(ctx, undefined),
    getSelectedRange(): Range {
      const { s, ref } = selected();
      return new Range(ctx, s, {
        top: ref.top,
        left: ref.left,
        bottom: ref.bottom,
        right: ref.right,
      });
    },
    getActiveCell(): Range {
      const { s, ref } = selected();
      return new Range(ctx, s, { top: ref.top, left: ref.left, bottom: ref.top, right: ref.left });
    },
    application: {
      // STANDIN.md "Host model": Recalculate (F9) calls no custom function, volatile ones aside;
      // Full and FullRebuild call every one.
      calculate(type: string): void {
        wb.log.push("calculate " + type);
        wb.recalculate(type === "Recalculate" ? "volatile" : "custom");
      },
      suspendApiCalculationUntilNextSync(): void {},
    },
  };
}

/** Excel.RequestContext over the stand-in's workbook. */
export class RequestContext {
  readonly objects: Loadable[] = [];
  readonly workbook: ReturnType<typeof workbookOf>;

  constructor(readonly wb: Workbook) {
    this.workbook = workbookOf(this, wb);
  }

  sync(): Promise<void> {
    this.wb.log.push("sync");
    this.wb.syncGen++;
    for (const o of this.objects) o.settleLoads();
    return new Promise((resolve, reject) => {
      setTimeout(() => {
        // The analyst's typing a test queued for after this sync (enterAfterSync, afterSync);
        // the batch goes on once what it set off (a calculation finishing) has happened, and a
        // test's failing step fails the batch instead of holding it.
        try {
          const typed = this.wb.typingAfterSync.splice(0).map((typing) => typing());
          Promise.all(typed).then(() => resolve(), reject);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      }, 0);
    });
  }
}
