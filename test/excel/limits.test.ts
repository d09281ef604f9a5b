// Results Excel cannot take are refused with a message suggesting limit or the task pane import.
import { assertWithinLimits, MAX_ROWS, ResultTooLargeError } from "../../src/excel/limits";

describe("result limits", () => {
  test("a normal table passes unchanged", () => {
    const rows = [["a", 1]];
    expect(assertWithinLimits(rows)).toBe(rows);
  });
  test("more rows than the grid is refused", () => {
    const rows = new Array(MAX_ROWS + 1).fill([1]);
    expect(() => assertWithinLimits(rows)).toThrow(ResultTooLargeError);
  });
  test("more than the byte budget is refused, in English and Japanese", () => {
    const rows = Array.from({ length: 100 }, () => ["x".repeat(1000)]);
    let err: unknown;
    try {
      assertWithinLimits(rows, 50_000);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ResultTooLargeError);
    expect((err as ResultTooLargeError).message).toMatch(/limit/);
    expect((err as ResultTooLargeError).message).toMatch(/Import in the Kaisha pane/);
    expect((err as ResultTooLargeError).messageJa).toMatch(/取り込み/);
  });
  test("a formatted number is never counted below its JSON", () => {
    const cells = [
      { type: "Double" as const, basicValue: -Math.PI * 1e-300, numberFormat: "0.00" },
      { type: "Double" as const, basicValue: 7203, numberFormat: '#,##0"円";[Red]-#,##0"円"' },
      { type: "Double" as const, basicValue: 0.077, numberFormat: "0.0%" },
    ];
    for (const cell of cells) {
      const json = JSON.stringify([[cell]]).length;
      expect(() => assertWithinLimits([[cell]], json - 1)).toThrow(ResultTooLargeError);
    }
    const table = Array.from({ length: 1000 }, () => [...cells]);
    expect(assertWithinLimits(table)).toBe(table);
  });
});
