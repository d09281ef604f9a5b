// workbook.html (sandbox builds): the Excel stand-in's display language, read from ?lang= or the
// browser, set before excel-standin.js loads. A file, not an inline script: the page's
// Content-Security-Policy allows scripts from our origin only (scripts/csp.js).
import type { StandInConfig } from "./workbook-model";

const lang = new URLSearchParams(location.search).get("lang");
const config: StandInConfig = {
  displayLanguage: lang === "en" || (!lang && !/^ja/i.test(navigator.language)) ? "en-US" : "ja-JP",
};
(window as unknown as { __excelStandInConfig?: StandInConfig }).__excelStandInConfig = config;
