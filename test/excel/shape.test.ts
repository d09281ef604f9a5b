// Records -> 2-D arrays: header modes, labels, empty cells, padding.
import { buildTable, padRows } from "../../src/excel/shape";

const columns = [
  { key: "code", label: "証券コード" },
  { key: "close", label: "終値" },
];
const rows = [
  { code: "7203", close: 2500 },
  { code: "130A", close: null },
];
const title = { identifier: "7203", dataset: "prices", asOf: 45000, source: "IRBANK" };

describe("buildTable", () => {
  test("header mode 1: keys then rows; null is an empty cell", () => {
    expect(buildTable({ columns, rows, headers: 1, headerLanguage: "keys" })).toEqual([
      ["code", "close"],
      ["7203", 2500],
      ["130A", ""],
    ]);
  });
  test("header mode 0: data only", () => {
    expect(buildTable({ columns, rows, headers: 0, headerLanguage: "keys" })).toEqual([
      ["7203", 2500],
      ["130A", ""],
    ]);
  });
  test("header mode 2: title row padded to the width, then Japanese labels", () => {
    const out = buildTable({ columns, rows, headers: 2, headerLanguage: "ja", title });
    expect(out[0]).toEqual(["7203", "prices", 45000, "IRBANK"]);
    expect(out[1]).toEqual(["証券コード", "終値", "", ""]);
    expect(out.every((r) => r.length === 4)).toBe(true);
  });
  test("a column without a Japanese label falls back to its key", () => {
    expect(
      buildTable({
        columns: [{ key: "x" }],
        rows: [{ x: 1 }],
        headers: 1,
        headerLanguage: "ja",
      })[0],
    ).toEqual(["x"]);
  });
  test("arrays become a joined text, booleans stay booleans", () => {
    const out = buildTable({
      columns: [{ key: "a" }, { key: "b" }],
      rows: [{ a: ["x", "y"], b: true }],
      headers: 0,
      headerLanguage: "keys",
    });
    expect(out).toEqual([["x, y", true]]);
  });
});

describe("helpers", () => {
  test("ragged rows are padded with empty cells", () => {
    expect(padRows([[1], [1, 2, 3]])).toEqual([
      [1, "", ""],
      [1, 2, 3],
    ]);
  });
});
