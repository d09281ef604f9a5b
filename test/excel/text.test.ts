// HTML -> text, and splitting so that no cell passes 32,767 characters.
import { htmlToText, splitForCells, truncateForCell } from "../../src/excel/text";

describe("htmlToText", () => {
  test("blocks become lines, entities are decoded, tags dropped", () => {
    expect(htmlToText("<p>売上&amp;利益</p><p>A&lt;B&nbsp;C</p><script>x()</script>")).toBe(
      "売上&利益\n\nA<B C",
    );
  });
  test("table cells become tabs and numeric entities decode", () => {
    expect(htmlToText("<table><tr><td>a</td><td>&#x3042;&#12354;</td></tr></table>")).toBe(
      "a\tああ",
    );
  });
});

describe("splitForCells", () => {
  test("one cell per paragraph, blank ones dropped", () => {
    expect(splitForCells("a\n\nb\n")).toEqual(["a", "b"]);
  });
  test("long paragraphs are cut below the limit without splitting surrogate pairs", () => {
    const text = "𠮷".repeat(10); // 20 UTF-16 units
    const cells = splitForCells(text, 5);
    expect(cells.every((c) => c.length <= 5)).toBe(true);
    expect(cells.join("")).toBe(text);
  });
  test("nothing over 32,767 characters", () => {
    const cells = splitForCells("x".repeat(70_000));
    expect(cells.map((c) => c.length)).toEqual([32_767, 32_767, 70_000 - 65_534]);
  });
  test("truncate", () => {
    expect(truncateForCell("abcdef", 4)).toBe("abc…");
  });
});
