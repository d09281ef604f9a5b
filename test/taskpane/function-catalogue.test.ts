// The builder's catalogue comes from the generated functions.json / functions-ja.json: every function,
// localized descriptions, lists whose values the functions themselves document, typed formula text.
import {
  builderCatalogue,
  builderFormula,
  exampleValues,
  loadBuilderCatalogue,
  missingArgs,
  type BuilderFunction,
  type EnumMetadata,
  type FunctionMetadata,
} from "../../taskpane/state/function-catalogue";
import { en } from "../../taskpane/i18n/en";
import { generatedFunctionsJson } from "./functions-metadata";
import { ja } from "../../taskpane/i18n/ja";
import { translator } from "../../taskpane/i18n/messages";
import { choiceText, paramName } from "../../taskpane/components/builder-section";

const { buildFunctionsJa } = require("../../scripts/functions-ja.js") as {
  buildFunctionsJa: (json: unknown, table: unknown) => { functions: FunctionMetadata[] };
};
const table = require("../../scripts/functions-ja-table.json") as unknown;

let english: FunctionMetadata[];
let japanese: FunctionMetadata[];
let enums: EnumMetadata[];
let catalogue: BuilderFunction[];

beforeAll(async () => {
  const json = await generatedFunctionsJson();
  english = json.functions;
  enums = json.enums;
  japanese = buildFunctionsJa(json, table).functions;
  catalogue = builderCatalogue(english, japanese, enums);
}, 60_000);

function fn(name: string): BuilderFunction {
  const f = catalogue.find((x) => x.name === name);
  if (!f) throw new Error(`no ${name}`);
  return f;
}

test("builder: one entry per function in functions.json, parameters in order, Japanese descriptions from functions-ja.json", () => {
  expect(catalogue.map((f) => f.name)).toEqual(english.map((f) => f.name));
  const financial = fn("FINANCIAL");
  expect(financial.params.map((p) => p.name)).toEqual([
    "company",
    "item",
    "fiscal_period",
    "period",
    "quarter",
    "unit",
  ]);
  expect(financial.params.map((p) => p.optional)).toEqual([false, false, true, true, true, true]);
  expect(financial.description.ja).toMatch(/財務/);
  expect(financial.params[1]?.description.ja).toMatch(/項目キー/);
  expect(financial.params[1]?.description.en).toMatch(/Item key/);
});

test("builder: every listed value is one the function's own description names", () => {
  let lists = 0;
  for (const f of catalogue) {
    for (const p of f.params) {
      if (p.kind.type !== "choice" || p.kind.freeform) continue;
      // The 33 official industries and the 12 section ids: the contract's lists, named there.
      if (p.name === "industry" || p.name === "section") continue;
      lists++;
      for (const option of p.kind.options) {
        if (p.name === "headers") expect(p.description.en).toContain(option);
        else expect(`${f.name}.${p.name}: ${p.description.en}`).toContain(option);
      }
    }
  }
  expect(lists).toBeGreaterThan(15);
});

test("builder: every parameter has a Japanese and an English name, every listed value a label", () => {
  const tJa = translator("ja");
  const tEn = translator("en");
  for (const f of catalogue) {
    for (const p of f.params) {
      expect(paramName(tJa, p.name)).not.toBe(p.name);
      expect(paramName(tEn, p.name)).not.toBe(p.name);
      if (p.kind.type !== "choice" || p.name === "industry") continue;
      for (const o of p.kind.options) {
        // Codes such as Q1 may read the same in English; Japanese always differs from the key.
        expect(`${p.name}=${choiceText(tJa, p.name, o)}`).not.toBe(`${p.name}=${o}`);
      }
    }
  }
  expect(choiceText(tJa, "period", "1y")).toBe("1年");
  expect(choiceText(tJa, "fiscal_period", "-1")).toBe("1期前");
  expect(choiceText(tEn, "dataset", "financials")).toBe(en.ds_financials);
  expect(Object.keys(ja).sort()).toEqual(Object.keys(en).sort());
});

test("builder: numbers stay numbers, codes and keys are text, references are unquoted", () => {
  const financial = fn("FINANCIAL");
  expect(builderFormula(financial, { company: "7203", item: "sales", fiscal_period: "-1" })).toBe(
    '=KAISHA.FINANCIAL("7203","sales",-1)',
  );
  expect(
    builderFormula(financial, { company: "7203", item: "sales", fiscal_period: "2025/03" }),
  ).toBe('=KAISHA.FINANCIAL("7203","sales","2025/03")');
  expect(builderFormula(financial, { company: "=$B$2", item: "= B9", fiscal_period: "=C$8" })).toBe(
    "=KAISHA.FINANCIAL($B$2,B9,C$8)",
  );
  expect(builderFormula(financial, { company: "E02144", item: "sales", quarter: "Q4" })).toBe(
    '=KAISHA.FINANCIAL("E02144","sales",,,"Q4")',
  );
  expect(builderFormula(fn("FINANCIALS"), { company: "7203", headers: "2" })).toBe(
    '=KAISHA.FINANCIALS("7203",,,,,,,2)',
  );
  expect(missingArgs(financial, { company: "7203" })).toEqual(["item"]);
  expect(exampleValues(financial)).toEqual({ company: "7203", item: "sales" });
  expect(exampleValues(fn("RANKINGS"))).toEqual({ metric: "gainers" });
});

test("builder: loads functions.json and functions-ja.json next to the page; English when the Japanese file is missing", async () => {
  const files: Record<string, unknown> = {
    "functions.json": { functions: english, enums },
    "functions-ja.json": { functions: japanese },
  };
  const asked: string[] = [];
  const fetchFn = async (url: string) => {
    asked.push(url);
    const body = files[url];
    return { ok: body !== undefined, json: async () => body };
  };
  const loaded = await loadBuilderCatalogue(fetchFn);
  expect(asked).toEqual(["functions.json", "functions-ja.json"]);
  expect(loaded.find((f) => f.name === "FINANCIAL")?.description.ja).toMatch(/財務/);
  // The lists come with functions.json's enums.
  expect(loaded).toEqual(catalogue);
  delete files["functions-ja.json"];
  const englishOnly = await loadBuilderCatalogue(fetchFn);
  const d = englishOnly.find((f) => f.name === "FINANCIAL")?.description;
  expect(d?.ja).toBe(d?.en);
  delete files["functions.json"];
  await expect(loadBuilderCatalogue(fetchFn)).rejects.toThrow("functions.json");
});
