// The official TSE names: 17 sectors, 33 industries, each industry in exactly one listed sector.

import { TSE17_SECTORS, TSE33_INDUSTRIES } from "../../src/contract/tse-industries";

test("33 industries and 17 sectors, no duplicates", () => {
  expect(new Set(TSE33_INDUSTRIES.map((i) => i.ja)).size).toBe(33);
  expect(new Set(TSE17_SECTORS.map((s) => s.ja)).size).toBe(17);
});

test("every industry names a listed sector, and every sector has an industry", () => {
  const sectors = new Set(TSE17_SECTORS.map((s) => s.ja));
  for (const i of TSE33_INDUSTRIES) expect(sectors).toContain(i.sector);
  expect(new Set(TSE33_INDUSTRIES.map((i) => i.sector))).toEqual(sectors);
  expect(TSE33_INDUSTRIES.find((i) => i.ja === "輸送用機器")?.sector).toBe("自動車・輸送機");
});
