// The sample dataset is deterministic: two generations are identical, and getDataset() is memoized.
import { createHash } from "node:crypto";
import { generateDataset, getDataset, type Dataset } from "../../../sandbox/data";

/** A digest of every table (Maps in insertion order) plus screening metrics at a few dates. */
function digest(ds: Dataset): string {
  const h = createHash("sha256");
  const feed = (name: string, value: unknown): void => {
    h.update(name);
    h.update(JSON.stringify(value instanceof Map ? [...value.entries()] : value));
  };
  feed("securities", ds.securities);
  feed("corporations", ds.corporations);
  for (const [k, v] of ds.financials) feed(`fin:${k}`, v);
  for (const [k, v] of ds.prices) feed(`prices:${k}`, v);
  feed("valuations", ds.valuations);
  feed("dividends", ds.dividends);
  feed("segments", ds.segments);
  for (const d of ds.disclosures) feed("doc", d);
  feed("officers", ds.officers);
  feed("persons", ds.persons);
  feed("peers", ds.peers);
  feed("weeklyMargin", ds.weeklyMargin);
  feed("jsf", ds.jsf);
  feed("fields", ds.screeningFields);
  for (const code of ["7203", "130A", "9983", "1306"]) {
    for (const date of ["2010-06-30", "2024-01-05", "2026-11-20"])
      feed(`m:${code}:${date}`, ds.screeningMetrics(code, date));
  }
  return h.digest("hex");
}

describe("sandbox dataset determinism", () => {
  it("two generations produce identical data in every table", () => {
    const t0 = performance.now();
    const first = generateDataset();
    const ms = Math.round(performance.now() - t0);
    // Printed for information only; timing is never asserted.
    console.log(`sandbox dataset generated in ${ms} ms`);
    const second = generateDataset();
    expect(digest(second)).toBe(digest(first));
  });

  it("getDataset returns the same memoized instance", () => {
    expect(getDataset()).toBe(getDataset());
  });
});
