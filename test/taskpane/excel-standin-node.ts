// Loads the Excel stand-in of the e2e pages (standin/excel-standin.js) into a Node test: its cell model, load/sync rules and typing hooks, without a browser.

/* eslint-disable @typescript-eslint/no-explicit-any */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The stand-in's test hooks (STANDIN.md): `enter`, `enterAfterSync`, `read`, `sheets`, `select`. */
export interface StandInHooks {
  select(sheet: string, address: string): void;
  enter(sheet: string, address: string, text: string): void;
  enterAfterSync(sheet: string, address: string, text: string): void;
  read(
    sheet: string,
    address: string,
  ): { value: unknown; formula: unknown; numberFormat: string; text: string; bold: boolean }[][];
  sheets(): { name: string; used: string | null; tables: { name: string; address: string }[] }[];
  log: string[];
}

const FILE = path.join(__dirname, "../../standin/excel-standin.js");
let js: string | undefined;

/**
 * Installs a fresh stand-in workbook (one sheet, "Sheet1") as the global `Excel`, as webpack's
 * build does in a page: the file is transpiled (its imports are the preview engine's TypeScript
 * modules, loaded through Jest) and run with `window` as the global object.
 * @example const excel = installExcelStandIn(); excel.enterAfterSync("Sheet1", "B3", "memo");
 */
export function installExcelStandIn(): StandInHooks {
  // Transpiled once per test file: each install runs the script again for a fresh workbook.
  js ??= ts.transpileModule(readFileSync(FILE, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
  }).outputText;
  const g = globalThis as any;
  g.window = g;
  delete g.__excelStandInConfig;
  const load = (p: string): unknown => require(path.join(path.dirname(FILE), p));
  new Function("require", "exports", "module", js)(load, {}, { exports: {} });
  return g.__excelStandIn as StandInHooks;
}

/** Removes the stand-in's globals. */
export function uninstallExcelStandIn(): void {
  const g = globalThis as any;
  delete g.Excel;
  delete g.__excelStandIn;
  delete g.window;
}
