// TSE sector and industry names in request parameters (openapi.json getScreening, listSecurities): a lazy chunk with the name tables, off the runtime page.

import {
  TSE17_SECTORS,
  TSE33_INDUSTRIES,
  canonicalNames,
  type Named,
} from "../contract/tse-industries";
import type { ErrorDetail } from "./errors";
import type { CleanParams } from "./params";

/**
 * openapi.json getScreening: `sector` / `industry` are comma lists of official TSE 17 / TSE 33
 * names. Each is mapped to its official spelling (full-width or half-width brackets alike); an
 * unknown name is refused before sending, naming the accepted values.
 */
function checkIndustryNames(
  params: CleanParams,
  param: "sector" | "industry",
  official: readonly Named[],
  details: ErrorDetail[],
): void {
  const value = params[param];
  if (typeof value !== "string") return;
  const { names, unknown } = canonicalNames(value, official);
  if (unknown.length > 0 || names.length === 0) {
    details.push({
      param,
      reason: "unknown_value",
      // 17 sector names fit a cell's message; 33 industry names do not, so those get examples.
      expected:
        param === "sector"
          ? `comma-separated TSE 17 sector names: ${official.map((n) => n.ja).join(", ")}`
          : "comma-separated TSE 33 industry names, e.g. 電気機器,輸送用機器,銀行業",
    });
    return;
  }
  params[param] = names.join(",");
}

/** openapi.json getScreening: `sector` and `industry` in their official spelling, else refused. */
export function checkScreeningNames(params: CleanParams, details: ErrorDetail[]): void {
  checkIndustryNames(params, "sector", TSE17_SECTORS, details);
  checkIndustryNames(params, "industry", TSE33_INDUSTRIES, details);
}

/** listSecurities `industry` (a string) in its official spelling, else refused. */
export function checkSecuritiesIndustry(params: CleanParams, details: ErrorDetail[]): void {
  const industry = params.industry as string;
  // openapi.json listSecurities: `industry` is one exact TSE 33-industry name; anything else can
  // only match nothing.
  const fold = (n: string): string => n.normalize("NFKC").replace(/\s+/g, "");
  const wanted = fold(industry);
  const official = TSE33_INDUSTRIES.find((i) => fold(i.ja) === wanted);
  if (official === undefined) {
    details.push({
      param: "industry",
      reason: "unknown_value",
      expected: "one TSE 33 industry name, e.g. 電気機器, 輸送用機器, 銀行業",
    });
  } else params.industry = official.ja;
}
