// The Problems list explains each KAISHA cell in error with the message its function recorded in the
// shared runtime (Excel does not give the pane that message), falling back to the generic text.
import { financial } from "../../functions/financial-cell";
import { getCellError, recordCellError, resetCellErrors } from "../../src/cell-errors";
import { problemsOf } from "../../taskpane/state/problems";
import { en } from "../../taskpane/i18n/en";
import { cellError, invocation, resetSession, useSandbox } from "../functions/harness";

jest.setTimeout(60_000);
afterAll(resetSession);
beforeEach(resetCellErrors);

const cell = (sheet: string, address: string, value: unknown, formula = "=KAISHA.PRICE(1)") => ({
  sheet,
  address,
  formula,
  value,
});

test("a #N/A cell shows the message its function recorded: the unknown company 9999", async () => {
  useSandbox();
  // The function runs as Excel calls it, with the calling cell's address (@requiresAddress).
  const thrown = await cellError(
    financial("9999", "sales", 0, null, null, null, invocation({ address: "Sheet1!A70" })),
  );
  const [problem] = problemsOf([cell("Sheet1", "A70", "#N/A", '=KAISHA.FINANCIAL(9999,"sales")')]);
  expect(problem).toEqual({
    sheet: "Sheet1",
    address: "A70",
    formula: '=KAISHA.FINANCIAL(9999,"sales")',
    error: "#N/A",
    message: thrown.message,
  });
  expect(problem?.message).toMatch(/9999/);
  expect(problem?.message).not.toBe(en.err_NotAvailable);
});

test("matches a sheet whose name needs quoting, in either case", () => {
  recordCellError("'Q1 ''24 data'!$B$2", "#VALUE!", "years: a whole number from 1 to 30", 1);
  recordCellError("SHEET2!C3", "#N/A", "No price for 2024-01-06: not a trading day", 1);
  const problems = problemsOf([cell("Q1 '24 data", "B2", "#VALUE!"), cell("Sheet2", "C3", "#N/A")]);
  expect(problems.map((p) => p.message)).toEqual([
    "years: a whole number from 1 to 30",
    "No price for 2024-01-06: not a trading day",
  ]);
});

test("without a record, or when the record explains a different error, the generic text stays", () => {
  recordCellError("Sheet1!A1", "#N/A", "Company not found: 9999", 1);
  const problems = problemsOf([
    // #REF!: the function was not called, so the old #N/A message does not apply.
    cell("Sheet1", "A1", "#REF!"),
    cell("Sheet1", "A2", "#N/A"),
    // valuesAsJson's own message, where a host gives one, wins.
    { ...cell("Sheet1", "A3", "#N/A"), errorMessage: "from Excel" },
    // errorType only (valuesAsJson): still matched to the recorded #N/A.
    { ...cell("Sheet1", "A1", 0), errorType: "NotAvailable" },
  ]);
  expect(problems.map((p) => p.message)).toEqual([
    undefined,
    undefined,
    "from Excel",
    "Company not found: 9999",
  ]);
});

test("a cell that answered since its failure has no recorded message left", async () => {
  useSandbox();
  const at = invocation({ address: "Sheet1!B5" });
  await cellError(financial("9999", "sales", 0, null, null, null, at));
  expect(getCellError("Sheet1!B5")).toBeDefined();
  await financial("7203", "sales", 0, null, null, null, invocation({ address: "Sheet1!B5" }));
  // Should the cell show an error again for another reason, the old message is not reused.
  expect(problemsOf([cell("Sheet1", "B5", "#N/A")])[0]?.message).toBeUndefined();
});

test("a message too long for the cell's tooltip is listed in full: the English one is not cut mid-word", async () => {
  useSandbox({ lang: "en" });
  // A company name that matches nothing: the cause, then every accepted form (over 200 characters).
  const name = "存在しない会社名テスト用ダミーの長い長い長い長い長い名前です";
  const thrown = await cellError(
    financial(name, "sales", 0, null, null, null, invocation({ address: "Sheet1!D9" })),
  );
  expect(thrown.message?.endsWith("…")).toBe(true);
  // What Excel shows in the cell (valuesAsJson) is the clipped text; the list shows all of it.
  const [problem] = problemsOf([
    { ...cell("Sheet1", "D9", "#VALUE!"), errorMessage: thrown.message ?? "" },
  ]);
  const full = problem?.message ?? "";
  expect(full.startsWith(`No listed company matches "${name}".`)).toBe(true);
  expect(full.endsWith("or a COMPANY / Stocks entity")).toBe(true);
  expect(full.length).toBeGreaterThan(thrown.message?.length ?? 0);
  // The same without valuesAsJson (Excel before 1.16): the recorded message, whole.
  expect(problemsOf([cell("Sheet1", "D9", "#VALUE!")])[0]?.message).toBe(full);
});
