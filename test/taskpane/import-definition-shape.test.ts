// A stored import definition read back passes a check of its shape: one of another shape is dropped, never run.
import { parseDefinition, type ImportDefinition } from "../../taskpane/state/import-definition";

const def: ImportDefinition = {
  v: 1,
  dataset: "financials",
  params: { security_code: "7203", period: "annual" },
  lang: "ja",
  headers: "keys",
  tableName: "Kaisha_financials_7203",
  createdAt: "2026-11-20T09:00:00Z",
};
const text = (patch: Record<string, unknown>) => JSON.stringify({ ...def, ...patch });

test("a definition as written reads back as it was", () => {
  expect(parseDefinition(JSON.stringify(def))).toEqual(def);
});

test.each([
  ["a list", "[1,2,3]"],
  ["null", "null"],
  ["a number", "5"],
  ["an unknown dataset", text({ dataset: "bonds" })],
  ["an inherited name as dataset", text({ dataset: "constructor" })],
  ["params as a list", text({ params: ["7203"] })],
  ["a parameter that is no text", text({ params: { security_code: 7203 } })],
  ["a nested parameter", text({ params: { security_code: { code: "7203" } } })],
  ["metrics of another shape", text({ dataset: "screening", metrics: { per: "PER" } })],
])("%s: dropped", (_name, stored) => {
  expect(parseDefinition(stored)).toBeUndefined();
});

test("an unknown language or header word is left out (the pane's own applies), the rest kept", () => {
  expect(parseDefinition(text({ lang: "fr", headers: 3 }))).toEqual({
    v: 1,
    dataset: "financials",
    params: def.params,
    tableName: def.tableName,
    createdAt: def.createdAt,
  });
});
