// Installs the Excel stand-in of the e2e pages (standin/install.ts) in a Node test: its cell model, load/sync rules and typing hooks, without a browser.

import {
  installExcelStandIn as install,
  type PageConfig as StandInConfig,
  type StandInHooks,
} from "../../standin/install";

export type { StandInHooks };

/**
 * Installs a fresh stand-in workbook (one sheet, "Sheet1", or `config.workbook`) as the global
 * `Excel`, as the page's excel-standin.js does, with Node's global object as its window.
 * @example const excel = installExcelStandIn(); excel.enterAfterSync("Sheet1", "B3", "memo");
 */
export function installExcelStandIn(config?: StandInConfig): StandInHooks {
  const g = globalThis as Parameters<typeof install>[0] & { window?: unknown };
  g.window = g;
  return install(g, config);
}

/** Removes the stand-in's globals. */
export function uninstallExcelStandIn(): void {
  const g = globalThis as Record<string, unknown>;
  delete g["Excel"];
  delete g["__excelStandIn"];
  delete g["CustomFunctions"];
  delete g["window"];
}
