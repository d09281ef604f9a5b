// The builder opens on a cell's KAISHA formula: parsed back into function + inputs (the same formula
// when rebuilt), and says what it resolves to ("2025年3月期 売上高 41.7兆円") from the cache only.
import {
  builderCatalogue,
  builderFormula,
  type BuilderFunction,
} from "../../taskpane/state/function-catalogue";
import { argumentInput, parseBuilderFormula } from "../../taskpane/state/formula-parse";
import { financialResolved, periodLabel, readableAmount } from "../../taskpane/state/resolved-text";
import { resolvedFinancial } from "../../taskpane/state/formula-preview";
import { financial } from "../../functions/financial-cell";
import { invocation, resetSession, useSandbox } from "../functions/harness";
import { generatedFunctionsJson } from "./functions-metadata";

let catalogue: BuilderFunction[];

beforeAll(async () => {
  const json = await generatedFunctionsJson();
  catalogue = builderCatalogue(json.functions, json.functions, json.enums);
}, 60_000);
afterAll(resetSession);

describe("a cell's formula back into the builder's form", () => {
  test("FINANCIAL with text, numbers, an empty slot and a unit: the inputs, and the same formula rebuilt", () => {
    const formula = '=KAISHA.FINANCIAL("7203","operating_profit",-1,"annual",,"million_jpy")';
    const parsed = parseBuilderFormula(formula, catalogue);
    expect(parsed).toEqual({
      name: "FINANCIAL",
      values: {
        company: "7203",
        item: "operating_profit",
        fiscal_period: "-1",
        period: "annual",
        unit: "million_jpy",
      },
    });
    if (typeof parsed === "string") throw new Error(parsed);
    const fn = catalogue.find((f) => f.name === parsed.name) as BuilderFunction;
    expect(builderFormula(fn, parsed.values)).toBe(formula);
  });

  test("references and expressions become the builder's =… inputs; quotes are unescaped", () => {
    expect(argumentInput("$B$2")).toBe("=$B$2");
    expect(argumentInput("A1+1")).toBe("=A1+1");
    expect(argumentInput('"a ""b"""')).toBe('a "b"');
    expect(argumentInput(" 7203 ")).toBe("7203");
    expect(argumentInput("TRUE")).toBe("TRUE");
    const parsed = parseBuilderFormula("=KAISHA.PRICE($A2, DATE(2024,3,29))", catalogue);
    expect(parsed).toMatchObject({ name: "PRICE", values: { company: "=$A2" } });
    if (typeof parsed === "string") throw new Error(parsed);
    expect(Object.values(parsed.values)).toContain("=DATE(2024,3,29)");
  });

  test("formulas the form cannot hold whole are refused with the reason, never half-loaded", () => {
    expect(parseBuilderFormula("=SUM(A1:A3)", catalogue)).toBe("not_kaisha");
    expect(parseBuilderFormula("", catalogue)).toBe("not_kaisha");
    expect(parseBuilderFormula('=KAISHA.PRICE("7203")*2', catalogue)).toBe("not_one_call");
    expect(parseBuilderFormula('=1+KAISHA.PRICE("7203")', catalogue)).toBe("not_one_call");
    expect(parseBuilderFormula('=KAISHA.NOSUCH("7203")', catalogue)).toBe("unknown_function");
    expect(parseBuilderFormula("=KAISHA.USAGE(1,2,3,4,5,6,7)", catalogue)).toBe("too_many_args");
    // Lower case and spaces as a user may type them.
    expect(parseBuilderFormula(' = kaisha.financial(7203, "sales") ', catalogue)).toMatchObject({
      name: "FINANCIAL",
      values: { company: "7203", item: "sales" },
    });
  });
});

describe("what a FINANCIAL formula resolves to", () => {
  test("period labels as filings name them, in both languages", () => {
    expect(periodLabel({ fiscal_year: "2025/03", type: "annual" }, "ja")).toBe("2025年3月期");
    expect(periodLabel({ fiscal_year: "2025/03", type: "annual" }, "en")).toBe("FY3/2025");
    expect(periodLabel({ fiscal_year: "2025/03", quarter: "Q2", type: "quarterly" }, "ja")).toBe(
      "2025年3月期 第2四半期",
    );
    expect(periodLabel({ fiscal_year: "2024/12", quarter: "Q3", type: "LTM" }, "en")).toBe(
      "LTM to FY12/2024 Q3",
    );
  });

  test("amounts in a readable unit: 兆円/億円, tn/bn, per share, %, 倍", () => {
    expect(readableAmount(41_700_000_000_000, "jpy", "ja")).toBe("41.7兆円");
    expect(readableAmount(351_200_000_000, "jpy", "ja")).toBe("3,512億円");
    expect(readableAmount(41_700_000_000_000, "jpy", "en")).toBe("¥41.7tn");
    expect(readableAmount(-2_500_000_000, "jpy", "en")).toBe("-¥2.5bn");
    expect(readableAmount(143.8, "jpy_per_share", "ja")).toBe("143.8円");
    expect(readableAmount(1234.56, "jpy_per_share", "en")).toBe("¥1,234.56");
    expect(readableAmount(0.125, "ratio", "en")).toBe("12.5%");
    expect(readableAmount(14.4, "times", "ja")).toBe("14.4倍");
    expect(
      financialResolved({ fiscal_year: "2025/03", type: "annual" }, "sales", 41.7e12, "ja"),
    ).toBe("2025年3月期 売上高 41.7兆円");
    expect(
      financialResolved({ fiscal_year: "2025/03", type: "annual" }, "sales", 41.7e12, "en"),
    ).toBe("FY3/2025 Net sales ¥41.7tn");
  });

  test("from the sandbox's answer, cache only: the period FINANCIAL picks and its value in yen", async () => {
    const h = useSandbox();
    const args = ["7203", "sales", -1, "annual", null, "million_jpy"];
    // Nothing cached: nothing to say, and nothing sent.
    expect(await resolvedFinancial("FINANCIAL", args, "ja")).toBeUndefined();
    expect(h.sent()).toBe(0);
    const inMillions = (await financial(
      "7203",
      "sales",
      -1,
      "annual",
      null,
      "million_jpy",
      invocation(),
    )) as number;
    const sent = h.sent();
    const text = (await resolvedFinancial("FINANCIAL", args, "ja")) ?? "";
    expect(h.sent()).toBe(sent);
    const body = await h.client.financials({ security_code: "7203", period: "annual", years: 30 });
    const previous = body.periods[body.periods.length - 2];
    if (!previous) throw new Error("no previous year");
    const [y, m] = previous.fiscal_year.split("/");
    expect(text).toBe(
      `${y}年${Number(m)}月期 売上高 ${readableAmount(inMillions * 1e6, "jpy", "ja")}`,
    );
    expect(await resolvedFinancial("PRICE", ["7203"], "ja")).toBeUndefined();
  });
});
