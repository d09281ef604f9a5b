// The preview page shows a formatted number as Excel would: an unquoted % scales by 100, a quoted "%" is text.
import { formatNumber, toDisplayCell } from "../../standin/cell-display";

describe("preview number formats (Microsoft, Number format codes)", () => {
  test("a 3.68% yield held as the fraction 0.0368 shows 3.68%, not 368.00%", () => {
    expect(formatNumber(0.0368, "0.00%")).toBe("3.68%");
    expect(formatNumber(0.655, "0.0%")).toBe("65.5%");
    expect(formatNumber(0.45, "0%")).toBe("45%");
  });

  test('a quoted "%" is literal text and scales nothing', () => {
    expect(formatNumber(3.68, '0.00"%"')).toBe("3.68%");
    expect(formatNumber(1234.5, '#,##0.0"%"')).toBe("1,234.5%");
    expect(formatNumber(3.68, "0.00\\%")).toBe("3.68%");
  });

  test("two unquoted % scale once, as numfmt reads them (STANDIN.md: Microsoft is silent)", () => {
    expect(formatNumber(0.0001, "0.00%%")).toBe("0.01%%");
  });

  test("negative percentages keep their sign in front", () => {
    expect(formatNumber(-0.0125, "0.00%")).toBe("-1.25%");
  });

  test("a stale marker after the format is shown after the value, not read as code", () => {
    expect(formatNumber(0.0368, '0.00%" (stale)"')).toBe("3.68% (stale)");
    expect(formatNumber(0.0368, '0.00%"（古い値）"')).toBe("3.68%（古い値）");
    expect(formatNumber(1500, '#,##0" (stale)"')).toBe("1,500 (stale)");
    expect(formatNumber(123, 'General" (stale)"')).toBe("123 (stale)");
    expect(formatNumber(45382, 'yyyy-mm-dd" (stale)"')).toBe("2024-03-31 (stale)");
  });

  test("the first section of a multi-section format is used, ; inside quotes kept", () => {
    expect(formatNumber(0.0368, "0.00%;[Red]-0.00%")).toBe("3.68%");
    expect(formatNumber(2, '0" a;b"')).toBe("2 a;b");
  });

  test("grouping, decimals and dates are unchanged", () => {
    expect(formatNumber(1234567.891, "#,##0.00")).toBe("1,234,567.89");
    expect(formatNumber(1234567.891, "0.0")).toBe("1234567.9");
    expect(formatNumber(45382, "yyyy-mm-dd")).toBe("2024-03-31");
  });

  test("a formatted result cell shows the percentage and keeps the fraction as its value", () => {
    const cell = toDisplayCell({ type: "Double", basicValue: 0.0368, numberFormat: "0.00%" });
    expect(cell).toMatchObject({ kind: "number", value: 0.0368, text: "3.68%" });
  });
});
