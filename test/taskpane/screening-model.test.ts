// taskpane/state/screening-model: units, conditions, the /screening query and the SCREEN formula.

import {
  CONDITION_CAP,
  addCondition,
  conditionCount,
  defaultUnit,
  draftProblem,
  emptyScreeningForm,
  parseScreeningFields,
  previewMetrics,
  previewNumber,
  previewUnit,
  removeCondition,
  screenFormula,
  screeningQuery,
  numericFields,
  unitChoices,
  type ScreeningFieldInfo,
} from "../../taskpane/state/screening-model";
import { shownValue } from "../../taskpane/state/histogram";
import { searchItems } from "../../taskpane/state/metric-labels";

/** What the screening section's metric picker offers for a search: numeric fields only, matched by searchItems. */
const searchMetrics = (fields: readonly ScreeningFieldInfo[], text: string) =>
  searchItems(numericFields(fields), text);

const FIELDS: ScreeningFieldInfo[] = [
  { key: "per", label: "PER", unit: "times", type: "numeric" },
  { key: "marketCap", label: "時価総額", unit: "jpy", type: "numeric" },
  { key: "equityRatio", label: "自己資本比率", unit: "ratio", type: "numeric" },
  { key: "roe", label: "ROE", unit: "percent", type: "numeric" },
  { key: "sector", label: "17業種", unit: null, type: "enum" },
];

test("unit choices: yen units convert, ratio with percent, others only their own (getScreening)", () => {
  expect(unitChoices("jpy")).toEqual(["jpy", "million_jpy", "hundred_million_jpy"]);
  expect(unitChoices("ratio")).toEqual(["ratio", "percent"]);
  expect(unitChoices("percent")).toEqual(["ratio", "percent"]);
  expect(unitChoices("times")).toEqual(["times"]);
  expect(unitChoices(null)).toEqual([]);
  expect(defaultUnit("jpy")).toBe("hundred_million_jpy");
  expect(defaultUnit("ratio")).toBe("percent");
  expect(defaultUnit("times")).toBe("times");
});

test("metric search matches Japanese labels, English labels and keys, full-width too; enums are not offered", () => {
  expect(searchMetrics(FIELDS, "時価").map((f) => f.key)).toEqual(["marketCap"]);
  expect(searchMetrics(FIELDS, "market cap").map((f) => f.key)).toEqual(["marketCap"]);
  expect(searchMetrics(FIELDS, "ｐｅｒ").map((f) => f.key)).toEqual(["per"]);
  expect(searchMetrics(FIELDS, "equity ratio").map((f) => f.key)).toEqual(["equityRatio"]);
  expect(searchMetrics(FIELDS, "").map((f) => f.key)).not.toContain("sector");
});

test("query: filters with explicit units only where they convert, sector/industry joined, sort and limit", () => {
  let form = emptyScreeningForm();
  form = addCondition(form, { field: "per", op: "lte", value: "15", unit: "times" });
  form = addCondition(form, {
    field: "marketCap",
    op: "gte",
    value: "1000",
    unit: "hundred_million_jpy",
  });
  form = addCondition(form, { field: "equityRatio", op: "gte", value: "40", unit: "percent" });
  form = {
    ...form,
    sectors: ["銀行", "不動産"],
    industries: [],
    sortBy: "marketCap",
    sortOrder: "asc",
    limit: 50,
  };
  expect(screeningQuery(form, FIELDS)).toEqual({
    filters: "per:lte:15,marketCap:gte:1000:hundred_million_jpy,equityRatio:gte:40:percent",
    sector: "銀行,不動産",
    sort_by: "marketCap",
    sort_order: "asc",
    limit: 50,
  });
  expect(conditionCount(form)).toBe(4);
});

test("SCREEN formula: same criteria in the catalogue's argument order, quotes doubled, empty slots kept", () => {
  let form = emptyScreeningForm();
  form = addCondition(form, { field: "per", op: "lte", value: "15", unit: "times" });
  form = { ...form, industries: ["証券、商品先物取引業"], name: 'A"B', limit: 30 };
  expect(screenFormula(form, FIELDS)).toBe(
    '=KAISHA.SCREEN("per:lte:15",,,,"証券、商品先物取引業",,30,"A""B")',
  );
});

test("SCREEN formula returns every match the preview counted, as the import does, up to SCREEN's 1000", () => {
  const form = addCondition(emptyScreeningForm(), {
    field: "per",
    op: "lte",
    value: "15",
    unit: "times",
  });
  // 250 matches: the formula must not stop at the 30-row preview page.
  expect(screenFormula(form, FIELDS, 250)).toBe('=KAISHA.SCREEN("per:lte:15",,,,,,250)');
  expect(screenFormula(form, FIELDS, 4_000)).toBe('=KAISHA.SCREEN("per:lte:15",,,,,,1000)');
  // Fewer matches than the row count: keep the row count, so later matches still show.
  expect(screenFormula(form, FIELDS, 9)).toBe('=KAISHA.SCREEN("per:lte:15",,,,,,30)');
  expect(screenFormula(form, FIELDS)).toBe('=KAISHA.SCREEN("per:lte:15",,,,,,30)');
});

test("conditions: the cap of 20 counts filters plus sector plus industry; drafts explain what is missing", () => {
  let form = { ...emptyScreeningForm(), sectors: ["銀行"] };
  const draft = { field: "per", op: "gte" as const, value: "1", unit: "times" };
  expect(draftProblem({ ...draft, field: "sector" }, form, FIELDS)).toBe("no_metric");
  expect(draftProblem({ ...draft, value: "abc" }, form, FIELDS)).toBe("no_value");
  expect(draftProblem({ ...draft, unit: "percent" }, form, FIELDS)).toBe("bad_unit");
  for (let i = 0; i < CONDITION_CAP - 1; i++) form = addCondition(form, draft);
  expect(conditionCount(form)).toBe(20);
  expect(draftProblem(draft, form, FIELDS)).toBe("cap");
  form = removeCondition(form, 0);
  expect(conditionCount(form)).toBe(19);
  expect(draftProblem(draft, form, FIELDS)).toBeUndefined();
});

test("the metric catalogue keeps each metric's scale note so the form can show it under the unit", () => {
  const fields = parseScreeningFields({
    fields: [
      {
        key: "equityRatio",
        label: "自己資本比率",
        unit: "ratio",
        type: "numeric",
        note: "1.0 = 100%。単位を省略した閾値も同じ尺度",
      },
      { key: "per", label: "PER（実績）", unit: "times", type: "numeric", note: "" },
      { key: "sector", label: "17業種", unit: null, type: "enum" },
      { key: 42, label: "broken", type: "numeric" },
    ],
  });
  expect(fields).toEqual([
    {
      key: "equityRatio",
      label: "自己資本比率",
      unit: "ratio",
      type: "numeric",
      note: "1.0 = 100%。単位を省略した閾値も同じ尺度",
    },
    { key: "per", label: "PER（実績）", unit: "times", type: "numeric" },
    { key: "sector", label: "17業種", unit: null, type: "enum" },
  ]);
});

test("preview table: condition metrics then the sort metric; yen in 億円, ratios in percent", () => {
  let form = addCondition(emptyScreeningForm(), {
    field: "marketCap",
    op: "gte",
    value: "1000",
    unit: "hundred_million_jpy",
  });
  form = addCondition(form, { field: "per", op: "lte", value: "15", unit: "times" });
  form = { ...form, sortBy: "equityRatio" };
  expect(previewMetrics(form)).toEqual(["marketCap", "per", "equityRatio"]);
  expect(previewMetrics({ ...form, sortBy: "per" })).toEqual(["marketCap", "per"]);
  expect(previewUnit("jpy")).toBe("hundred_million_jpy");
  expect(previewUnit("ratio")).toBe("percent");
  expect(previewUnit("times")).toBe("times");
  // A market cap of 3.512 trillion yen reads 35,120 (億円), not 3,512,000,000,000.
  expect(previewNumber(3_512_000_000_000, "jpy")).toBe("35,120");
  expect(previewNumber(0.4567, "ratio")).toBe("45.67");
  expect(previewNumber(14.2213, "times")).toBe("14.22");
  expect(previewNumber(12345.6, "percent")).toBe("12,346");
  expect(previewNumber(undefined, "times")).toBe("");
});

test("a threshold typed in full width or with thousands separators becomes a number", () => {
  const draft = {
    field: "marketCap",
    op: "gte" as const,
    value: "１，０００",
    unit: "hundred_million_jpy",
  };
  expect(draftProblem(draft, emptyScreeningForm(), FIELDS)).toBeUndefined();
  const form = addCondition(emptyScreeningForm(), draft);
  expect(form.conditions[0]?.value).toBe(1000);
  expect(screenFormula(form, FIELDS)).toBe(
    '=KAISHA.SCREEN("marketCap:gte:1000:hundred_million_jpy",,,,,,30)',
  );
});

test("a percentage condition always names its unit, so SCREEN (fractions) and the API (own unit) read one threshold", () => {
  let form = emptyScreeningForm();
  form = addCondition(form, { field: "roe", op: "gte", value: "10", unit: "percent" });
  form = addCondition(form, { field: "equityRatio", op: "gte", value: "0.4", unit: "ratio" });
  expect(screeningQuery(form, FIELDS).filters).toBe("roe:gte:10:percent,equityRatio:gte:0.4:ratio");
  expect(screenFormula(form, FIELDS)).toContain('"roe:gte:10:percent,equityRatio:gte:0.4:ratio"');
});

test("preview text and histogram show every percentage in percent points under a （%） header", () => {
  expect(previewUnit("percent")).toBe("percent");
  expect(previewNumber(12.34, "percent")).toBe("12.34");
  expect(previewNumber(0.1234, "ratio")).toBe("12.34");
  expect(shownValue(0.1234, "ratio")).toBe(12.34);
  expect(shownValue(12.34, "percent")).toBe(12.34);
});
