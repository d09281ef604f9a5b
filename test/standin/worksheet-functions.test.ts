// The preview/stand-in engine calculates Excel's own formulas the pane's sheets write: operators by
// Excel's precedence, IF/IFERROR (lazy), ISNUMBER, MEDIAN/AVERAGE over ranges, INDEX, as Excel does.
import { evaluate, type EvaluationContext } from "../../standin/evaluate";
import { parseFormula, parseAddress } from "../../standin/formula-parser";
import { toDisplayCell, type DisplayCell } from "../../standin/cell-display";

/** A sheet of typed values by address; KAISHA.TWICE(x) doubles, counting its calls. */
function context(cells: Record<string, unknown>, calls: string[] = []): EvaluationContext {
  const grid = new Map<string, DisplayCell>();
  for (const [addr, v] of Object.entries(cells)) {
    const at = parseAddress(addr)!;
    grid.set(
      `${at.row},${at.col}`,
      v === "#N/A"
        ? { kind: "error", code: "#N/A", message: "na", text: "#N/A" }
        : toDisplayCell(v),
    );
  }
  return {
    namespace: "KAISHA",
    metadata: new Map([
      ["TWICE", { id: "TWICE", name: "TWICE", parameters: [{ name: "x", type: "any" }] }],
    ]),
    implementations: new Map([
      [
        "TWICE",
        (x: unknown) => {
          calls.push(String(x));
          return typeof x === "number" ? 2 * x : "";
        },
      ],
    ]),
    cellAt: (at) => grid.get(`${at.row},${at.col}`),
    address: { row: 0, col: 0 },
    signal: new AbortController().signal,
  };
}

async function calc(formula: string, ctx: EvaluationContext): Promise<unknown> {
  const cell = (await evaluate(parseFormula(formula), ctx))?.[0]?.[0];
  if (cell?.kind === "error") return cell.code;
  return cell && "value" in cell ? cell.value : "";
}

test("operators follow Excel's precedence; negation binds tighter than ^; & joins text", async () => {
  const ctx = context({ A1: 10, A2: 4 });
  expect(await calc("A1+A2*2", ctx)).toBe(18);
  expect(await calc("(A1+A2)*2", ctx)).toBe(28);
  expect(await calc("-2^2", ctx)).toBe(4);
  expect(await calc("A1/A2-1", ctx)).toBe(1.5);
  expect(await calc('A1&"x"', ctx)).toBe("10x");
  expect(await calc("A1>A2", ctx)).toBe(true);
  expect(await calc('"abc"="ABC"', ctx)).toBe(true);
});

test("arithmetic on text is #VALUE!, a blank cell counts 0, /0 is #DIV/0!; IFERROR catches them", async () => {
  const ctx = context({ A1: 10, A2: "", B1: "text" });
  expect(await calc("A1*B1", ctx)).toBe("#VALUE!");
  expect(await calc("A1/C9", ctx)).toBe("#DIV/0!");
  expect(await calc("A1+C9", ctx)).toBe(10);
  expect(await calc('IFERROR(A1/A2,"")', ctx)).toBe("");
  expect(await calc('IFERROR(A1/B1,"-")', ctx)).toBe("-");
  expect(await calc("IFERROR(A1/4,0)", ctx)).toBe(2.5);
  expect(await calc("A1+D1", context({ A1: 1, D1: "#N/A" }))).toBe("#N/A");
});

test("IF calculates only the chosen branch (a KAISHA call in the other is never made)", async () => {
  const calls: string[] = [];
  const ctx = context({ A1: 3, A2: "" }, calls);
  expect(await calc("IF(ISNUMBER(A1),KAISHA.TWICE(A1),KAISHA.TWICE(100))", ctx)).toBe(6);
  expect(calls).toEqual(["3"]);
  expect(await calc("IF(ISNUMBER(A2),A2,KAISHA.TWICE(7))", ctx)).toBe(14);
  expect(await calc('IF(A2="","empty","full")', ctx)).toBe("empty");
  expect(await calc("IF(FALSE,1)", ctx)).toBe(false);
});

test("MEDIAN and AVERAGE skip text and blanks in ranges; no numbers is #NUM! / #DIV/0!", async () => {
  const ctx = context({ A1: 1, A2: "", A3: 5, A4: "n/a", A5: 10, A6: 2 });
  expect(await calc("MEDIAN(A1:A6)", ctx)).toBe(3.5);
  expect(await calc("AVERAGE(A1:A6)", ctx)).toBe(4.5);
  expect(await calc("MEDIAN(A1:A5)", ctx)).toBe(5);
  expect(await calc("COUNT(A1:A6)", ctx)).toBe(4);
  expect(await calc("MEDIAN(B1:B3)", ctx)).toBe("#NUM!");
  expect(await calc("AVERAGE(B1:B3)", ctx)).toBe("#DIV/0!");
  expect(await calc("MEDIAN(A1:A7,D1)", context({ A1: 1, D1: "#N/A" }))).toBe("#N/A");
});

test("INDEX picks from a range, 1-based; outside is #REF!; HYPERLINK shows its label", async () => {
  const ctx = context({ A1: 1, B1: 2, A2: 3, B2: 4 });
  expect(await calc("INDEX(A1:B2,2,1)", ctx)).toBe(3);
  expect(await calc("INDEX(A1:B1,2)", ctx)).toBe(2);
  expect(await calc("INDEX(A1:B2,3,1)", ctx)).toBe("#REF!");
  expect(await calc('HYPERLINK("https://x.example","site")', ctx)).toBe("site");
  expect(await calc("UNKNOWNFN(1)", ctx)).toBe("#NAME?");
});

test('number formats the sheets use: "#,##0,," shows yen in millions, quoted units show as written', () => {
  const { formatNumber } = jest.requireActual<typeof import("../../standin/cell-display")>(
    "../../standin/cell-display",
  );
  expect(formatNumber(31_379_507_000_000, "#,##0,,")).toBe("31,379,507");
  expect(formatNumber(-1_500_000, "#,##0,,")).toBe("-2");
  expect(formatNumber(12.345, '0.00"倍"')).toBe("12.35倍");
  expect(formatNumber(0.0768, "0.0%")).toBe("7.7%");
  expect(formatNumber(123.456, "#,##0.00")).toBe("123.46");
});

test("RIGHT gives the last characters as Excel does (1 when omitted, all when more, #VALUE! below 0); MEDIAN and AVERAGE skip an NM text", async () => {
  const ctx = context({ A1: "2025/12", A2: 10, A3: "NM", A4: 30, A5: 2 });
  expect(await calc("RIGHT(A1,2)", ctx)).toBe("12");
  expect(await calc("RIGHT(A1)", ctx)).toBe("2");
  expect(await calc("RIGHT(A1,20)", ctx)).toBe("2025/12");
  expect(await calc("RIGHT(A1,0)", ctx)).toBe("");
  expect(await calc("RIGHT(A1,-1)", ctx)).toBe("#VALUE!");
  expect(await calc("RIGHT(A2,1)", ctx)).toBe("0");
  expect(await calc("MEDIAN(A2:A5)", ctx)).toBe(10);
  expect(await calc("AVERAGE(A2:A5)", ctx)).toBe(14);
});

test('a KAISHA function\'s "" inside IF or INDEX stays "" (shows empty), not the 0 of a returned null', async () => {
  const ctx = context({ A1: "" });
  expect(await calc('IF(A1="",KAISHA.TWICE("a"),1)', ctx)).toBe("");
  expect(await calc('IF(ISNUMBER(KAISHA.TWICE("a")),1,KAISHA.TWICE("a"))', ctx)).toBe("");
});
