// The one percent scale: percent values become fractions (api / 100), ratios stay, thresholds convert back.
import fc from "fast-check";
import {
  fromSheetScale,
  isPercentage,
  percentPoints,
  toSheetScale,
} from "../../src/excel/percent-scale";

describe("percent scale", () => {
  test("percent and ratio are percentages; times, jpy and points are not", () => {
    expect(["percent", "ratio"].every(isPercentage)).toBe(true);
    expect(["times", "jpy", "points", "jpy_per_share", undefined, null].some(isPercentage)).toBe(
      false,
    );
  });

  test("a percent value is api / 100 as a double; a ratio and every other unit are as sent", () => {
    expect(toSheetScale(7.7, "percent")).toBe(0.077);
    expect(toSheetScale(43.6, "percent")).toBe(43.6 / 100);
    expect(toSheetScale(0.655, "ratio")).toBe(0.655);
    expect(toSheetScale(12.5, "times")).toBe(12.5);
  });

  test("property: any percent the API can send is exactly api / 100 on the sheet", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => {
        expect(toSheetScale(v, "percent")).toBe(v / 100);
      }),
    );
  });

  test("property: a threshold typed as a fraction goes back to the API's percent without float noise", () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 100_000 }), (hundredths) => {
        const percent = hundredths / 100; // 12.34 (%), as the API writes it
        expect(fromSheetScale(toSheetScale(percent, "percent"), "percent")).toBe(percent);
      }),
    );
    expect(fromSheetScale(0.07, "percent")).toBe(7);
    expect(fromSheetScale(0.4, "ratio")).toBe(0.4);
  });

  test("percent points (the pane's text beside a %): a ratio times 100, a percent as sent", () => {
    expect(percentPoints(0.4567, "ratio")).toBe(45.67);
    expect(percentPoints(45.67, "percent")).toBe(45.67);
  });
});
