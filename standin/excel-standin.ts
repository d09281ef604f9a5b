// In-page stand-in for Excel (built by webpack as excel-standin.js, injected with page.addInitScript
// before a page's scripts): installs the workbook, the Excel API subset taskpane/excel/ uses, the
// CustomFunctions registry and Office.context (install.ts) with the page's config
// (window.__excelStandInConfig, STANDIN.md).
import { installExcelStandIn } from "./install";

const page = window as unknown as Parameters<typeof installExcelStandIn>[0];
installExcelStandIn(page, page.__excelStandInConfig);
