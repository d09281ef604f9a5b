// Every refusal names what was typed and the argument by the name the user reads (項目, 年数 in
// Japanese, as Excel's Japanese formula help names them), a date typed where a name belongs is said
// to be a date, a code the API does not know is named, and the Problems list reads the cell's text.
import * as KAISHA from "../../functions/index";
import { financial } from "../../functions/financial-cell";
import { resetCellErrors } from "../../src/cell-errors";
import { ArgumentError } from "../../src/excel/args";
import { ARGUMENT_NAMES_JA, argumentNameJa } from "../../src/excel/argument-names";
import { datasetNames, fieldKey, fieldsWhere } from "../../src/excel/field-names";
import { problemsOf } from "../../taskpane/state/problems";
import { call } from "./call-by-name";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);
beforeEach(resetCellErrors);

const table = require("../../scripts/functions-ja-table.json") as {
  $parameterNames: Record<string, string>;
};

/** The ArgumentError a call throws. */
function refusal(run: () => unknown): ArgumentError {
  try {
    run();
  } catch (err) {
    if (err instanceof ArgumentError) return err;
    throw err;
  }
  throw new Error("expected an ArgumentError");
}

test("the Japanese argument names are the ones Excel's Japanese formula help shows", () => {
  expect(ARGUMENT_NAMES_JA).toEqual(table.$parameterNames);
  expect(argumentNameJa("item")).toBe("項目");
  expect(argumentNameJa("fiscal_period")).toBe("決算期");
  // A name the help does not list stays as it is; inherited names are no argument names.
  expect(argumentNameJa("constructor")).toBe("constructor");
});

test("an argument error names the argument in the user's language and what was typed", () => {
  const err = new ArgumentError("years", { en: "an integer 1-30", ja: "1〜30 の整数" }, 99);
  expect(err.message).toBe("years 99: use an integer 1-30");
  expect(err.messageJa).toBe("年数 99：1〜30 の整数 を指定してください");
  const text = new ArgumentError("unit", { en: "jpy", ja: "jpy" }, "yen");
  expect(text.messageJa).toBe("単位「yen」：jpy を指定してください");
  const caused = new ArgumentError("company", { en: "a code", ja: "コード" }, "x", {
    en: "No company matches x",
    ja: "x に当たる会社はありません",
  });
  expect(caused.messageJa).toBe("x に当たる会社はありません。会社 にはコードを指定してください");
});

test("a mistyped item: 項目「salez」 with the nearest item, in both languages", () => {
  const err = refusal(() =>
    fieldKey("salez", datasetNames("financials"), "item", fieldsWhere("financials", true)),
  );
  expect(err.message).toMatch(/^item "salez": did you mean sales \(売上高\)\?/);
  expect(err.messageJa).toMatch(/^項目「salez」：sales（売上高）のことですか？/);
});

test("a date where a name belongs is named as that date, not as its serial", () => {
  const err = refusal(() =>
    fieldKey("47484", datasetNames("prices"), "field", fieldsWhere("prices", true)),
  );
  expect(err.message).toMatch(/^field got the date 2030\/01\/01 \(47484\), not a name/);
  expect(err.messageJa).toMatch(/^項目 に日付 2030\/01\/01（47484）が入っています/);
  expect(err.messageJa).toContain("（日付は日付の引数に書きます）");
});

test("PRICE(7203, DATE(2030,1,1)) is #VALUE! saying the date went into 項目 (field), with no request", async () => {
  const h = useSandbox({ lang: "ja" });
  const ja = await cellError(call(KAISHA.PRICE, "7203", { field: 47484 }));
  expect(ja.code).toBe("#VALUE!");
  expect(ja.message).toMatch(/^項目 に日付 2030\/01\/01（47484）が入っています/);
  useSandbox({ lang: "en" });
  const en = await cellError(call(KAISHA.PRICE, "7203", { field: 47484 }));
  expect(en.message).toMatch(/^field got the date 2030\/01\/01 \(47484\)/);
  expect(h.sent()).toBe(0);
});

test("FINANCIAL(9999, …) names 9999 in Japanese too, and Problems reads what the cell says", async () => {
  useSandbox({ lang: "ja" });
  const thrown = await cellError(
    financial("9999", "sales", 0, null, null, null, invocation({ address: "Sheet1!B9" })),
  );
  expect(thrown.code).toBe("#N/A");
  expect(thrown.message).toMatch(/^9999 に該当するデータが見つかりません/);
  const [problem] = problemsOf([
    { sheet: "Sheet1", address: "B9", formula: '=KAISHA.FINANCIAL(9999,"sales")', value: "#N/A" },
  ]);
  expect(problem?.message).toBe(thrown.message);
});

test("a mistyped item reads the same in the cell and in Problems", async () => {
  useSandbox({ lang: "ja" });
  const thrown = await cellError(
    financial("7203", "salez", 0, null, null, null, invocation({ address: "Sheet1!C3" })),
  );
  expect(thrown.code).toBe("#VALUE!");
  expect(thrown.message).toMatch(/^項目「salez」：/);
  const [problem] = problemsOf([
    {
      sheet: "Sheet1",
      address: "C3",
      formula: '=KAISHA.FINANCIAL(7203,"salez")',
      value: "#VALUE!",
    },
  ]);
  expect(problem?.message).toBe(thrown.message);
});

test("FINANCIAL(7203) without its item: the function's own message, in the cell and in Problems", async () => {
  useSandbox({ lang: "ja" });
  // Omitted, as the workbook page's stand-in passes a required argument left out (STANDIN.md).
  const thrown = await cellError(
    financial("7203", null, null, null, null, null, invocation({ address: "Sheet1!D4" })),
  );
  expect(thrown.code).toBe("#VALUE!");
  expect(thrown.message).toMatch(/^項目/);
  const [problem] = problemsOf([
    { sheet: "Sheet1", address: "D4", formula: "=KAISHA.FINANCIAL(7203)", value: "#VALUE!" },
  ]);
  expect(problem?.message).toBe(thrown.message);
});
