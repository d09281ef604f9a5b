// A results figure corrected after publication (sandbox/data/corrections.ts): its 訂正 disclosure
// and the corrected rows appear together, 24 hours after the correction (openapi.json
// info.description), in every series (getFinancials: values are the latest corrected ones).
import { CORRECTIONS } from "../../sandbox/data/corrections";
import { get, makeSandbox, warmDataset } from "./helpers";

warmDataset();

const correction = CORRECTIONS[0];
if (correction === undefined) throw new Error("no correction in the sandbox");
const BEFORE = "2026-11-13T06:59:00Z";
const AFTER = "2026-11-13T07:00:00Z";

async function at(now: string) {
  const sandbox = makeSandbox({ now });
  const code = correction?.code ?? "";
  const annual = await get(sandbox, `/v1/financials?security_code=${code}&period=annual&years=5`);
  const quarterly = await get(
    sandbox,
    `/v1/financials?security_code=${code}&period=quarterly&years=3`,
  );
  const list = await get(sandbox, `/v1/securities/${code}/disclosures?from=2026-11-01`);
  type Row = { fiscal_year: string; quarter?: string; sales: number | null };
  const rows = (body: { periods: Row[] }, quarter?: string) =>
    body.periods.filter((p) => p.fiscal_year === correction?.fiscalYear && p.quarter === quarter);
  return {
    year: rows(annual.body)[0]?.sales,
    fullYear: rows(quarterly.body, "full_year")[0]?.sales,
    quarters: ["Q1", "Q2", "Q3", "Q4"].map((q) => rows(quarterly.body, q)[0]?.sales ?? NaN),
    titles: (list.body.disclosures as { title: string }[]).map((d) => d.title),
  };
}

describe("a corrected results figure (訂正)", () => {
  test("under 24 hours after the 訂正: neither it nor the corrected figure is visible", async () => {
    const before = await at(BEFORE);
    expect(before.titles).not.toContain(correction.title);
    expect(typeof before.year).toBe("number");
    expect(before.fullYear).toBe(before.year);
  });

  test("from 24 hours on: the 訂正 is listed and every series carries the corrected figure", async () => {
    const before = await at(BEFORE);
    const after = await at(AFTER);
    expect(after.titles).toContain(correction.title);
    const original = before.year as number;
    expect(after.year).toBe(Math.round(original * correction.factor));
    expect(after.fullYear).toBe(after.year);
    // Q4 moves by the same difference: the four quarters still add up to the year.
    expect(after.quarters.reduce((s, q) => s + q, 0)).toBe(
      before.quarters.reduce((s, q) => s + q, 0) + (after.year as number) - original,
    );
  });
});
