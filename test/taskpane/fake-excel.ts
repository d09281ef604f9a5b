// A small Excel object model built from office-addin-mock objects, for the taskpane/excel tests.
// Every object is an OfficeMockObject, so reading a property that was not loaded and synced gives
// the mock's error text instead of a value, exactly as the load/sync rules require. The code gets a
// fresh proxy for every range it asks for (as Office.js gives): a loaded content property is a copy
// taken where the load stands in the batch, readable after the sync, not a live view of the cell
// (Office.js: "Excel JavaScript object model", load and sync), and writes go to the one stored range.

/* eslint-disable @typescript-eslint/no-explicit-any */
import { OfficeMockObject } from "office-addin-mock";

type Matrix = unknown[][];

interface FakeRangeSpec {
  address: string;
  values: Matrix;
  formulas?: Matrix;
  valuesAsJson?: Matrix;
  numberFormat?: Matrix;
}

interface FakeSheetSpec {
  name: string;
  /** the used range (getUsedRangeOrNullObject), absent = empty sheet. */
  used?: FakeRangeSpec;
  /** spill ranges by anchor cell address (e.g. "B2"). */
  spills?: Record<string, FakeRangeSpec>;
  /** what single cells hold when the code first asks for them (e.g. a formula showing #BUSY!). */
  cells?: Record<string, FakeRangeSpec>;
  /** addresses of target areas that getUsedRangeOrNullObject reports as holding data. */
  occupied?: Record<string, string>;
}

export interface FakeSpec {
  sheets: FakeSheetSpec[];
  active?: string;
  selection?: FakeRangeSpec;
  tables?: {
    name: string;
    sheet: string;
    address: string;
    rowCount: number;
    columnCount: number;
  }[];
}

export interface FakeExcel {
  /** calls in order, e.g. "clear Sheet1!A1:C4 All", "calculate Full", "sync". */
  log: string[];
  /** the range object the code got for an address (values/formulas/numberFormat as written). */
  range(sheet: string, address: string): any;
  sheet(name: string): any;
  tablesAdded: { sheet: string; address: string; hasHeaders: boolean; table: any }[];
  charts: { sheet: string; type: string; source: any; chart: any; added: any[] }[];
  sheetsAdded: string[];
  /** The user activates a sheet: worksheets.onActivated handlers run. */
  activate(name: string): Promise<void>;
  /**
   * The analyst types into a single cell as in Excel: a Text ("@") cell keeps text, a leading
   * apostrophe makes text, "=…" is a formula (its calculated value is `result`), digits a number.
   */
  enter(sheet: string, address: string, text: string, result?: unknown): void;
  /** Runs `typing` once, after the pane's next sync (the analyst typing between two batches). */
  afterNextSync(typing: () => void): void;
  /** What one cell holds now, loaded by the code or not: formula bar content, value, format. */
  cell(sheet: string, address: string): { formula: unknown; value: unknown; format: unknown };
}

const CONTENT = new Set(["values", "formulas", "numberFormat", "valuesAsJson"]);

/** The property names a load call asks for ("*" or none: all of them). */
function loadedNames(props: unknown): string[] {
  if (props === undefined || props === "*") return [...CONTENT];
  if (typeof props === "string") return props.split(",").map((p) => p.trim().split("/")[0] ?? "");
  if (Array.isArray(props)) return props.map(String);
  return Object.keys(props as object);
}

/** A stored range's content, loaded or not (office-addin-mock keeps unloaded values aside). */
function contentOf(stored: any, prop: string): any {
  const v = stored[prop];
  if (typeof v === "string" && v.startsWith("Error, "))
    return stored._properties?.get(prop)?._valueBeforeLoaded;
  return v;
}

/**
 * Writes one cell's values or formulas by Excel's rule for Range.values (Microsoft's reference: a
 * string starting with "=", "+" or "-" is a formula, except in a Text "@" cell); a leading
 * apostrophe is Excel's escape for text and is not kept (office-js#6687). A formula's calculated
 * value is `result` (the fake calculates nothing): by default the cell keeps the value it showed.
 */
function writeSingleCell(stored: any, x: unknown, result?: unknown): void {
  const format = contentOf(stored, "numberFormat")?.[0]?.[0];
  if (typeof x === "string" && x.startsWith("'")) {
    stored.values = [[x.slice(1)]];
    stored.formulas = [[x.slice(1)]];
  } else if (typeof x === "string" && /^[=+-]/.test(x) && format !== "@") {
    const before = contentOf(stored, "values")?.[0]?.[0];
    const formula = x.startsWith("=") ? x : `=${x}`;
    stored.values = [[result !== undefined ? result : before === formula ? "" : (before ?? "")]];
    stored.formulas = [[formula]];
  } else {
    stored.values = [[x ?? ""]];
    stored.formulas = [[x ?? ""]];
  }
}

function size(address: string): { rows: number; cols: number } {
  const part = address.split("!").pop() ?? address;
  const [a, b] = part.split(":");
  const cell = (s: string) => {
    const m = /^\$?([A-Z]+)\$?(\d+)$/.exec(s);
    if (!m) return { r: 0, c: 0 };
    let c = 0;
    for (const ch of m[1] ?? "") c = c * 26 + ch.charCodeAt(0) - 64;
    return { r: Number(m[2]), c };
  };
  const s = cell(a ?? "A1");
  const e = b ? cell(b) : s;
  return { rows: e.r - s.r + 1, cols: e.c - s.c + 1 };
}

export function installFakeExcel(spec: FakeSpec): FakeExcel {
  const tracked: OfficeMockObject[] = [];
  const log: string[] = [];
  const ranges = new Map<string, any>();
  const keyOf = new Map<unknown, string>();
  const sheets = new Map<string, any>();
  const tablesAdded: FakeExcel["tablesAdded"] = [];
  const charts: FakeExcel["charts"] = [];
  const sheetsAdded: string[] = [];
  const specs = new Map(spec.sheets.map((s) => [s.name, s]));
  const storageOf = new WeakMap<object, any>();
  const proxies: { pending: Map<string, unknown>; ready: Map<string, unknown> }[] = [];
  const afterSync: (() => void)[] = [];

  /** A fresh proxy on a stored range, as Office.js gives one per getRange call. */
  const handOut = (stored: any): any => {
    const state = { pending: new Map<string, unknown>(), ready: new Map<string, unknown>() };
    proxies.push(state);
    const single = contentOf(stored, "rowCount") === 1 && contentOf(stored, "columnCount") === 1;
    const proxy: any = new Proxy(stored, {
      get(target, prop) {
        if (prop === "load")
          return (props?: unknown) => {
            target.load(props);
            for (const name of loadedNames(props))
              if (CONTENT.has(name))
                state.pending.set(name, structuredClone(contentOf(target, name)));
            return proxy;
          };
        if (typeof prop === "string" && state.ready.has(prop)) return state.ready.get(prop);
        return Reflect.get(target, prop, target);
      },
      set(target, prop, value) {
        if (typeof prop === "string" && CONTENT.has(prop)) state.ready.set(prop, value);
        const cell = Array.isArray(value) ? value[0]?.[0] : value;
        if (single && (prop === "values" || prop === "formulas")) writeSingleCell(target, cell);
        else target[prop] = value;
        return true;
      },
    });
    storageOf.set(proxy, stored);
    const key = keyOf.get(stored);
    if (key) keyOf.set(proxy, key);
    return proxy;
  };

  const track = (data: Record<string, unknown>): any => {
    const m = new OfficeMockObject(data as any);
    tracked.push(m);
    return m;
  };
  const nullObject = () => {
    const m = track({
      isNullObject: true,
      address: "",
      rowCount: 0,
      columnCount: 0,
      values: [],
      formulas: [],
      valuesAsJson: [],
      numberFormat: [],
    });
    m.load("isNullObject");
    return m;
  };
  const qualified = (sheet: string, address: string) =>
    address.includes("!") ? address : `${sheet}!${address}`;

  const rangeOf = (sheet: string, address: string, given?: FakeRangeSpec): any => {
    const init = given ?? specs.get(sheet)?.cells?.[address];
    const key = qualified(sheet, address);
    const existing = ranges.get(key);
    if (existing) return existing;
    const { rows, cols } = size(address);
    const blank = Array.from({ length: rows }, () => Array.from({ length: cols }, () => ""));
    const r = track({
      isNullObject: false,
      address: qualified(sheet, init?.address ?? address),
      values: init?.values ?? blank,
      formulas: init?.formulas ?? init?.values ?? blank,
      valuesAsJson: init?.valuesAsJson ?? blank,
      numberFormat: init?.numberFormat ?? blank,
      rowCount: rows,
      columnCount: cols,
      format: { font: { bold: false, italic: false, color: "" }, columnWidth: 0 },
      clear: (kind: string) => void log.push(`clear ${key} ${kind}`),
      getUsedRangeOrNullObject: () => {
        const occupied = specs.get(sheet)?.occupied?.[address];
        if (!occupied) return nullObject();
        const u = rangeOf(sheet, occupied);
        u.load("isNullObject");
        return handOut(u);
      },
      getSpillingToRangeOrNullObject: () => {
        const spill = specs.get(sheet)?.spills?.[address];
        return spill ? handOut(rangeOf(sheet, spill.address, spill)) : nullObject();
      },
      select: () => void log.push(`select ${key}`),
      getCell: (row: number, col: number) => {
        const base = (init?.address ?? address).split("!").pop() ?? address;
        const m = /^([A-Z]+)(\d+)/.exec(base.split(":")[0] ?? "A1");
        let c = 0;
        for (const ch of m?.[1] ?? "A") c = c * 26 + ch.charCodeAt(0) - 64;
        const letter = String.fromCharCode(64 + c + col);
        return handOut(rangeOf(sheet, `${letter}${Number(m?.[2] ?? 1) + row}`));
      },
    });
    r.format.autofitColumns = () => void log.push(`autofit ${key}`);
    r.load("isNullObject");
    ranges.set(key, r);
    keyOf.set(r, key);
    return r;
  };

  const tableMock = (
    name: string,
    sheet: string,
    address: string,
    rowCount: number,
    columnCount: number,
  ) => {
    const t = track({
      isNullObject: false,
      name,
      getRange: () => handOut(rangeOf(sheet, address)),
      getDataBodyRange: () => {
        const part = address.split("!").pop() ?? address;
        const m = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(part);
        const body = m ? `${m[1]}${Number(m[2]) + 1}:${m[3]}${m[4]}` : part;
        return handOut(rangeOf(sheet, body));
      },
      delete: () => void log.push(`delete table ${name}`),
    });
    t.load("isNullObject");
    void rowCount;
    void columnCount;
    return t;
  };
  const existingTables = new Map(
    (spec.tables ?? []).map((t) => [
      t.name,
      tableMock(t.name, t.sheet, t.address, t.rowCount, t.columnCount),
    ]),
  );
  for (const t of spec.tables ?? []) {
    const r = rangeOf(t.sheet, t.address);
    r.rowCount = t.rowCount;
    r.columnCount = t.columnCount;
  }

  const sheetOf = (name: string): any => {
    const existing = sheets.get(name);
    if (existing) return existing;
    const sheetSpec = specs.get(name);
    const s = track({
      isNullObject: false,
      name,
      visibility: "Visible",
      // The used range's own area gives its content (formulas.ts reads it in blocks of rows).
      getRange: (address?: string) =>
        sheetSpec?.used && address === sheetSpec.used.address.split("!").pop()
          ? handOut(rangeOf(name, sheetSpec.used.address, sheetSpec.used))
          : handOut(rangeOf(name, address ?? "A1:XFD1048576")),
      getUsedRangeOrNullObject: () =>
        sheetSpec?.used
          ? handOut(rangeOf(name, sheetSpec.used.address, sheetSpec.used))
          : nullObject(),
      activate: () => void log.push(`activate ${name}`),
      tables: {
        items: [],
        add: (address: string, hasHeaders: boolean) => {
          const t = tableMock("", name, qualified(name, address), 0, 0);
          tablesAdded.push({ sheet: name, address, hasHeaders, table: t });
          return t;
        },
      },
      charts: {
        items: [],
        add: (type: string, source: any, _by: string) => {
          const series0 = track({
            name: "",
            setXAxisValues: (r: unknown) => void log.push(`x ${keyOf.get(r)}`),
          });
          const added: any[] = [series0];
          const chart = track({
            name: `Chart ${charts.length + 1}`,
            title: {
              text: "",
              setFormula: (f: string) => void log.push(`title formula ${f}`),
            },
            legend: { position: "" },
            axes: { categoryAxis: { reversePlotOrder: false } },
            series: {
              getItemAt: () => series0,
              add: (seriesName: string) => {
                const s2 = track({
                  name: seriesName,
                  setValues: (r: unknown) => void log.push(`values ${seriesName} ${keyOf.get(r)}`),
                  setXAxisValues: (r: unknown) => void log.push(`x ${keyOf.get(r)}`),
                });
                added.push(s2);
                return s2;
              },
            },
            setPosition: (cell: string) => void log.push(`chart at ${cell}`),
          });
          charts.push({ sheet: name, type, source: storageOf.get(source) ?? source, chart, added });
          return chart;
        },
      },
    });
    s.load("isNullObject");
    sheets.set(name, s);
    return s;
  };
  for (const s of spec.sheets) sheetOf(s.name);

  const active = spec.active ?? spec.sheets[0]?.name ?? "Sheet1";
  const activated = new Set<(event: { worksheetId: string }) => Promise<unknown>>();
  const workbook = track({
    getSelectedRange: () =>
      handOut(rangeOf(active, spec.selection?.address ?? "A1", spec.selection)),
    application: { calculate: (type: string) => void log.push(`calculate ${type}`) },
    tables: {
      items: [...existingTables.values()],
      getItemOrNullObject: (name: string) => existingTables.get(name) ?? nullObject(),
      getItem: (name: string) =>
        existingTables.get(name) ?? tablesAdded.find((t) => t.table.name === name)?.table,
    },
    worksheets: {
      items: spec.sheets.map((s) => sheetOf(s.name)),
      getActiveWorksheet: () => sheetOf(active),
      getItem: (name: string) => sheetOf(name),
      getItemOrNullObject: (name: string) => (sheets.has(name) ? sheetOf(name) : nullObject()),
      // Worksheet activation (the event's worksheetId is the sheet's name here).
      onActivated: {
        add: (handler: (event: { worksheetId: string }) => Promise<unknown>) => {
          activated.add(handler);
          return { remove: () => activated.delete(handler) };
        },
      },
      add: (name: string) => {
        sheetsAdded.push(name);
        specs.set(name, { name });
        return sheetOf(name);
      },
    },
  });
  const context = {
    workbook,
    sync: async () => {
      log.push("sync");
      for (const m of [...tracked]) await m.sync();
      for (const { pending, ready } of proxies) {
        for (const [name, value] of pending) ready.set(name, value);
        pending.clear();
      }
      for (const typing of afterSync.splice(0)) typing();
    },
  };
  (globalThis as any).Excel = new OfficeMockObject({
    run: async (batch: (c: unknown) => Promise<unknown>) => batch(context),
  } as any);
  return {
    log,
    range: (sheet, address) => ranges.get(qualified(sheet, address)),
    sheet: (name) => sheets.get(name),
    tablesAdded,
    charts,
    sheetsAdded,
    activate: async (name) => {
      for (const handler of [...activated]) await handler({ worksheetId: name });
    },
    enter: (sheet, address, text, result) => {
      const stored = rangeOf(sheet, address);
      const format = contentOf(stored, "numberFormat")?.[0]?.[0];
      const typed = text.trim();
      // Typed digits are a number unless the cell is Text ("@"), as in Excel.
      const number = format !== "@" && typed !== "" && Number.isFinite(Number(typed));
      writeSingleCell(stored, number ? Number(typed) : text, result);
    },
    afterNextSync: (typing) => void afterSync.push(typing),
    cell: (sheet, address) => {
      const stored = rangeOf(sheet, address);
      return {
        formula: contentOf(stored, "formulas")?.[0]?.[0],
        value: contentOf(stored, "values")?.[0]?.[0],
        format: contentOf(stored, "numberFormat")?.[0]?.[0],
      };
    },
  };
}

export function uninstallFakeExcel(): void {
  delete (globalThis as any).Excel;
}
