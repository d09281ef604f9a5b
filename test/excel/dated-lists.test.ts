// The lists a period argument walks (src/excel/period-rows.ts datedList): an answer's rows dated
// once for all of them, each list as before.

import type { FinancialsPeriod } from "../../src/contract";
import { datedList, type ListName } from "../../src/excel/period-rows";

function row(fiscal_year: string, quarter: string, sales: number): FinancialsPeriod {
  return { fiscal_year, quarter, sales } as unknown as FinancialsPeriod;
}

/** Two March years of quarters and halves, frozen as the client hands answers out. */
function answer(): readonly FinancialsPeriod[] {
  const rows = ["2024/03", "2025/03"].flatMap((fy, y) =>
    ["Q1", "Q2", "H1", "Q3", "Q4", "full_year"].map((q, i) => row(fy, q, 100 * y + i)),
  );
  for (const r of rows) Object.freeze(r);
  return Object.freeze(rows);
}

const label = (list: readonly { fiscalYear: string; entry: { quarter?: string } }[]) =>
  list.map((d) => `${d.fiscalYear} ${d.entry.quarter ?? ""}`);

test("every list of an answer is made of the one dating of its rows", () => {
  const periods = answer();
  const all = datedList(periods, "all");
  const names: ListName[] = ["singles", "Q2", "H1", "full_year", "yearEnds", "halves"];
  for (const name of names)
    for (const d of datedList(periods, name))
      // A derived second half is the only entry of its own (its row is the full year's).
      if (d.entry.quarter !== "H2")
        expect({ name, shared: all.includes(d) }).toEqual({ name, shared: true });
  // The lists themselves, as they were.
  expect(label(datedList(periods, "singles"))).toEqual([
    "2024/03 Q1",
    "2024/03 Q2",
    "2024/03 Q3",
    "2024/03 Q4",
    "2025/03 Q1",
    "2025/03 Q2",
    "2025/03 Q3",
    "2025/03 Q4",
  ]);
  expect(label(datedList(periods, "yearEnds"))).toEqual(["2024/03 Q4", "2025/03 Q4"]);
  expect(label(datedList(periods, "halves"))).toEqual([
    "2024/03 H1",
    "2024/03 H2",
    "2025/03 H1",
    "2025/03 H2",
  ]);
  const h2 = datedList(periods, "H2").map((d) => d.entry as { h1?: FinancialsPeriod });
  expect(h2.map((e) => e.h1)).toEqual([periods[2], periods[8]]);
});
