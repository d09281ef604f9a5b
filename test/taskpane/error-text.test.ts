// taskpane/error-text: the pane shows the client's localized messages, never the key.

import { AuthenticationError, RateLimitError, ValidationError } from "../../src/client";
import { errorText, isCancel, UserMessageError } from "../../taskpane/error-text";
import { translator } from "../../taskpane/i18n/messages";
import { TargetNotEmptyError, WriteCancelledError } from "../../taskpane/excel/write-table";
import { ExcelUnavailableError } from "../../taskpane/excel/run";

const ja = translator("ja");
const en = translator("en");

test("API errors use the client's localized message in the pane's language", () => {
  const err = new AuthenticationError("unauthorized");
  expect(errorText(err, ja)).toBe(err.messageJa);
  expect(errorText(err, en)).toBe(err.message);
  const invalid = new ValidationError([
    { param: "years", reason: "out_of_range", expected: "1..30" },
  ]);
  expect(errorText(invalid, ja)).toBe(invalid.messageJa);
  expect(errorText(new RateLimitError({}), en)).not.toBe("");
});

test("a missing key names the pane's Connection tab instead of sending the user to the pane", () => {
  const err = new AuthenticationError("missing_key");
  expect(errorText(err, ja)).toBe("APIキーが未設定です。「接続」タブでキーを入力してください。");
  expect(errorText(err, en)).toBe("No API key is set: enter one under Connection.");
  for (const text of [errorText(err, ja), errorText(err, en)]) {
    expect(text).not.toMatch(/Kaisha ?パネル|Kaisha pane/);
  }
});

test("pane errors: occupied cells name the address, cancel reads as a cancel, no Excel says so", () => {
  expect(errorText(new TargetNotEmptyError("Sheet1!B3"), ja)).toContain("Sheet1!B3");
  expect(errorText(new WriteCancelledError(), en)).toBe(en("importCancelled"));
  expect(isCancel(new WriteCancelledError())).toBe(true);
  expect(errorText(new ExcelUnavailableError(), ja)).toBe(ja("excelUnavailable"));
  expect(errorText(new UserMessageError("年数が範囲外です。"), ja)).toBe("年数が範囲外です。");
});
