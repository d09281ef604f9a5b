// ltmOf: an LTM from the window kept per answer and period choice gives what computeLtm gives, for every item and choice.

import type { FinancialsPeriod } from "../../src/contract";
import { ltmOf } from "../../functions/cells/answer-index";
import { periodArgsOf } from "../../functions/cells/interned-args";
import { computeLtm } from "../../src/excel/period-ltm";

/** A row: a fiscal year's end month and part, sales (a flow), total_assets (a stock, full_year only). */
function row(fy: string, quarter: string, sales: number | null, assets?: number) {
  return {
    fiscal_year: fy,
    quarter,
    sales,
    operating_cf: quarter === "full_year" || quarter === "H1" ? 7 : null,
    total_assets: quarter === "full_year" ? (assets ?? 1000) : null,
  };
}

/**
 * December years, then a change to March (a 3-month transitional year 2022/03 of one quarter),
 * then March years; a null quarter in 2023/03 and a missing Q3 in 2024/03.
 */
function answer(): readonly FinancialsPeriod[] {
  const rows = [
    ...["Q1", "Q2", "Q3", "Q4"].map((q, i) => row("2020/12", q, 10 + i)),
    row("2020/12", "full_year", 46, 900),
    ...["Q1", "Q2", "Q3", "Q4"].map((q, i) => row("2021/12", q, 20 + i)),
    row("2021/12", "full_year", 86, 950),
    row("2022/03", "Q1", 5.5),
    row("2022/03", "full_year", 5.5, 960),
    ...["Q1", "Q2", "Q3", "Q4"].map((q, i) => row("2023/03", q, i === 2 ? null : 30.25 + i)),
    row("2023/03", "full_year", 130, 1000),
    row("2024/03", "Q1", 40),
    row("2024/03", "Q2", 41),
    row("2024/03", "Q4", 43),
    row("2024/03", "full_year", 170, 1100),
    row("2025/03", "Q1", 50.1),
    row("2025/03", "Q2", 50.2),
  ];
  return Object.freeze(rows.map((r) => Object.freeze(r))) as unknown as readonly FinancialsPeriod[];
}

const CHOICES: Array<[unknown, unknown]> = [
  [0, null],
  [-1, null],
  [-2, null],
  [-4, null],
  [-9, null],
  [-30, null],
  [0, "Q2"],
  [-1, "Q2"],
  [0, "Q4"],
  ["2023/03", null],
  ["2023/03", "Q2"],
  ["2021/12", null],
  ["2022/03", null],
  [2024, null],
  ["2024-09-30", null],
  ["2022-06-30", null],
];

test.each(CHOICES)(
  "LTM (%p, quarter %p): the kept window gives computeLtm's result for a flow, a half-yearly flow and a stock",
  (fiscalPeriod, quarter) => {
    const periods = answer();
    const choice = periodArgsOf(fiscalPeriod, "LTM", quarter);
    expect(Object.isFrozen(choice)).toBe(true);
    for (const item of ["sales", "operating_cf", "total_assets"]) {
      const expected = computeLtm(periods, item, choice.spec, choice.quarter);
      expect(ltmOf(periods, choice, item)).toEqual(expected);
      // Again: from the index kept for this answer and choice.
      expect(ltmOf(periods, choice, item)).toEqual(expected);
    }
  },
);

test("the cases the fixture is for are there: a sum, an incomplete window, a balance and no anchor", () => {
  const periods = answer();
  const at = (p: unknown, q: unknown, item: string) =>
    ltmOf(periods, periodArgsOf(p, "LTM", q), item);
  // Across the year-end change: 2021/12 Q4 + 2022/03 Q1 + 2023/03 Q1, Q2 are consecutive quarters.
  expect(at("2023/03", "Q2", "sales")).toMatchObject({ ok: true, value: 23 + 5.5 + 30.25 + 31.25 });
  expect(at("2023/03", null, "sales")).toMatchObject({ ok: false, reason: "incomplete" }); // a null Q3
  expect(at(0, "Q4", "sales")).toMatchObject({ ok: false, reason: "incomplete" }); // Q3 missing
  expect(at(0, null, "total_assets")).toMatchObject({ ok: true, value: 1100 });
  expect(at(-30, null, "sales")).toMatchObject({ ok: false, reason: "no_anchor" }); // 18 quarters
});
