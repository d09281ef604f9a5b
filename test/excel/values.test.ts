// Cell values: dates as serials, formatted where the host supports it; entity cards.
import {
  dateCell,
  dateTimeCell,
  entityCell,
  formattedNumber,
  plainCell,
} from "../../src/excel/values";

const plain = { dataTypes: false };
const rich = { dataTypes: true };

describe("cell values", () => {
  test("dates are plain serials on older hosts", () => {
    expect(dateCell("2024-03-31", plain)).toBe(45382);
  });
  test("dates are formatted numbers with CustomFunctionsRuntime 1.4", () => {
    expect(dateCell("2024-03-31", rich)).toEqual({
      type: "Double",
      basicValue: 45382,
      numberFormat: "yyyy/mm/dd",
    });
  });
  test("null dates are empty, non-dates stay text", () => {
    expect(dateCell(null, rich)).toBe("");
    expect(dateCell("n/a", plain)).toBe("n/a");
  });
  test("date-times use the JST wall clock", () => {
    expect(dateTimeCell("2024-05-10T06:00:00Z", plain)).toBeCloseTo(45422.625, 9);
  });
  test("plain cells: NaN and null are empty", () => {
    expect(plainCell(Number.NaN)).toBe("");
    expect(plainCell(null)).toBe("");
    expect(plainCell(0)).toBe(0);
  });
  test("formatted numbers fall back to numbers", () => {
    expect(formattedNumber(1.5, "0.0", plain)).toBe(1.5);
  });
  test("entity cards omit empty properties", () => {
    const card = entityCell("トヨタ", [
      ["name", "トヨタ"],
      ["per", 10.5, "0.00"],
      ["address", null],
    ]);
    expect(card.type).toBe("Entity");
    expect(card.text).toBe("トヨタ");
    expect(Object.keys(card.properties)).toEqual(["name", "per"]);
    expect(card.properties.per).toEqual({ type: "Double", basicValue: 10.5, numberFormat: "0.00" });
  });
});
