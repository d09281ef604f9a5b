// Money scaling: only fields whose unit is jpy.
import { moneyUnitLabel, scaleValue } from "../../src/excel/units";

describe("unit scaling", () => {
  test("yen amounts are divided", () => {
    expect(scaleValue(1_500_000_000, "jpy", "million_jpy")).toBe(1500);
    expect(scaleValue(250_000_000, "jpy", "hundred_million_jpy")).toBe(2.5);
    expect(scaleValue(12_345, "jpy", "thousand_jpy")).toBeCloseTo(12.345);
  });
  test("per-share, ratio, percent and share counts are never scaled", () => {
    for (const unit of ["jpy_per_share", "ratio", "percent", "shares", "times", undefined, null]) {
      expect(scaleValue(1_000_000, unit, "million_jpy")).toBe(1_000_000);
    }
  });
  test("null stays null", () => {
    expect(scaleValue(null, "jpy", "million_jpy")).toBeNull();
  });
  test("labels", () => {
    expect(moneyUnitLabel("hundred_million_jpy", "ja")).toBe("億円");
  });
});
