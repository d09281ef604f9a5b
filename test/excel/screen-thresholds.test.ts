// SCREEN thresholds follow the cells' scale: 0.03 (or 3%) on a percentage metric means 3%.
import { ArgumentError } from "../../src/excel/args";
import {
  everyUnitExplicit,
  readPercentSigns,
  thresholdsForApi,
} from "../../src/excel/screen-thresholds";

const UNITS: Record<string, string> = {
  roe: "percent",
  dividendYield: "percent",
  equityRatio: "ratio",
  per: "times",
  marketCap: "jpy",
};
const unitOf = (k: string) => UNITS[k];

describe("SCREEN thresholds on the sheet's scale", () => {
  test("a percent metric's fraction is sent as the API's percent number", () => {
    expect(thresholdsForApi("roe:gte:0.1", [false], unitOf)).toBe("roe:gte:10");
    expect(thresholdsForApi("dividendYield:gte:0.035", [false], unitOf)).toBe(
      "dividendYield:gte:3.5",
    );
    expect(thresholdsForApi("roe:lt:-0.05", [false], unitOf)).toBe("roe:lt:-5");
  });

  test("a ratio metric already uses fractions; other metrics are untouched", () => {
    expect(thresholdsForApi("equityRatio:gte:0.4,per:lte:15", [false, false], unitOf)).toBe(
      "equityRatio:gte:0.4,per:lte:15",
    );
    expect(thresholdsForApi("marketCap:gte:1000", [false], unitOf)).toBe("marketCap:gte:1000");
  });

  test("an explicit unit keeps its own scale: 10:percent is 10%, 0.1:ratio is 10%", () => {
    expect(thresholdsForApi("roe:gte:10:percent,roe:gte:0.1:ratio", [false, false], unitOf)).toBe(
      "roe:gte:10:percent,roe:gte:0.1:ratio",
    );
  });

  test("3% typed is the fraction 0.03, whichever scale the metric uses at the API", () => {
    const signs = readPercentSigns("dividendYield:gte:3%,equityRatio:gte:40％,per:lte:15");
    expect(signs).toEqual({
      filters: "dividendYield:gte:0.03,equityRatio:gte:0.4,per:lte:15",
      typedPercent: [true, true, false],
    });
    expect(thresholdsForApi(signs.filters, signs.typedPercent, unitOf)).toBe(
      "dividendYield:gte:3,equityRatio:gte:0.4,per:lte:15",
    );
  });

  test("% on a metric that is not a percentage is #VALUE! naming the metric and its unit", () => {
    const signs = readPercentSigns("per:lte:15%");
    expect(() => thresholdsForApi(signs.filters, signs.typedPercent, unitOf)).toThrow(
      ArgumentError,
    );
    expect(() => thresholdsForApi(signs.filters, signs.typedPercent, unitOf)).toThrow(
      /per \(unit times\): % is only for percentage metrics/,
    );
  });

  test("a unit-less percentage threshold of 1 (100%) or more is refused as ambiguous, naming the three clear spellings", () => {
    for (const filters of ["roe:gte:10", "equityRatio:gte:40", "dividendYield:gte:1", "roe:lt:-1"])
      expect(() => thresholdsForApi(filters, [false], unitOf)).toThrow(
        /a fraction for \w+ \(0\.1 = 10%\): 0\.1, 10% or 10:percent/,
      );
    // Written with % or a unit it is clear, and a fraction just under 100% is fine.
    expect(thresholdsForApi("roe:gte:1.5", [true], unitOf)).toBe("roe:gte:150");
    expect(thresholdsForApi("roe:gte:150:percent", [false], unitOf)).toBe("roe:gte:150:percent");
    expect(thresholdsForApi("roe:gte:0.99", [false], unitOf)).toBe("roe:gte:99");
    // Not a percentage: no such guard (per 15 is 15 times).
    expect(thresholdsForApi("per:lte:15", [false], unitOf)).toBe("per:lte:15");
  });

  test("% together with a unit is refused: the two could disagree", () => {
    expect(() => readPercentSigns("roe:gte:10%:percent")).toThrow(/with % or with a unit/);
  });

  test("every unit explicit: only then can a screen go without the catalogue's units", () => {
    expect(everyUnitExplicit("roe:gte:10:percent,marketCap:gte:1:hundred_million_jpy")).toBe(true);
    expect(everyUnitExplicit("roe:gte:10:percent,per:lte:15")).toBe(false);
  });
});
