// src/client/response-check: answers checked against the contract's required fields before use.

import { RESPONSE_FIELDS } from "../../src/contract/response-fields.generated";
import type { OperationId } from "../../src/contract/rules";
import { BadResponseError } from "../../src/client/errors";
import { CUT_MARKER, EXCEL_MAX_TEXT, checkAnswer } from "../../src/client/response-check";

const ATTRIBUTION = { source_label: "s", license_note: "l", processed_by: "p" };
const prices = () => ({
  fields: [{ key: "close", label: "終値", unit: "jpy" }],
  code: "7203",
  prices: [{ date: "2026-11-19", close: 1 }],
  next_cursor: null,
  reason: null,
  attribution: ATTRIBUTION,
});

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BadResponseError);
    expect((e as BadResponseError).kind).toBe("field");
    return (e as Error).message;
  }
  throw new Error("expected a refusal");
}

test("every operation has a readable rule string", () => {
  for (const op of Object.keys(RESPONSE_FIELDS) as OperationId[]) {
    // An empty object passes only where nothing is required.
    const required = RESPONSE_FIELDS[op] !== "";
    expect([
      op,
      (() => {
        try {
          checkAnswer(op, {});
          return false;
        } catch {
          return true;
        }
      })(),
    ]).toEqual([op, required]);
  }
});

test("a complete answer passes unchanged (same object), unknown extra fields kept", () => {
  const body = { ...prices(), added_in_2027: [1] };
  expect(checkAnswer("getPrices", body)).toBe(body);
});

test("missing or mistyped fields are named, nested ones with their index", () => {
  const { prices: _drop, ...noPrices } = prices();
  expect(fieldOf(() => checkAnswer("getPrices", noPrices))).toBe(
    "Unexpected answer from the API (field prices)",
  );
  expect(fieldOf(() => checkAnswer("getPrices", { ...prices(), prices: {} }))).toContain(
    "(field prices)",
  );
  const badItem = { ...prices(), prices: [{ date: "2026-11-19" }, { close: 2 }] };
  expect(fieldOf(() => checkAnswer("getPrices", badItem))).toContain("(field prices[1].date)");
  expect(fieldOf(() => checkAnswer("getPrices", { ...prices(), attribution: {} }))).toContain(
    "(field attribution.source_label)",
  );
  // reason is an object or null (o?): both fine, a string is not.
  expect(() =>
    checkAnswer("getPrices", { ...prices(), reason: { code: "x", message: "y" } }),
  ).not.toThrow();
  expect(fieldOf(() => checkAnswer("getPrices", { ...prices(), reason: "none" }))).toContain(
    "(field reason)",
  );
});

test("non-finite numbers are refused anywhere; over-long strings are cut with a marker, in a copy", () => {
  const infinite = { ...prices(), prices: [{ date: "2026-11-19", close: Infinity }] };
  expect(fieldOf(() => checkAnswer("getPrices", infinite))).toContain("(field prices[0].close)");
  const long = { ...prices(), code: "x".repeat(EXCEL_MAX_TEXT + 10) };
  const out = checkAnswer("getPrices", long) as { code: string };
  expect(out).not.toBe(long);
  expect(out.code).toHaveLength(EXCEL_MAX_TEXT);
  expect(out.code.endsWith(CUT_MARKER)).toBe(true);
  expect(long.code).toHaveLength(EXCEL_MAX_TEXT + 10);
});

test("without the field table (checkAnswers off), only numbers and text are checked", () => {
  expect(checkAnswer("getPrices", { prices: [] }, false)).toEqual({ prices: [] });
  expect(() => checkAnswer("getPrices", { x: -Infinity }, false)).toThrow(BadResponseError);
});
