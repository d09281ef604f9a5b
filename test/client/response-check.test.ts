// src/client/response-check: answers checked against the contract's types and rows before use.

import fs from "node:fs";
import path from "node:path";
import { RESPONSE_ROOTS } from "../../src/contract/generated/response-fields";
import type { OperationId } from "../../src/contract/rules";
import { BadResponseError } from "../../src/client/errors";
import { CUT_MARKER, EXCEL_MAX_TEXT, checkAnswer } from "../../src/client/response-check";
import { ROW_IDENTITY } from "../../src/client/duplicate-rows";
import { get, makeSandbox } from "../sandbox/helpers";

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

test("every operation has a readable rule: an empty object is refused (each requires a field)", () => {
  for (const op of Object.keys(RESPONSE_ROOTS) as OperationId[]) {
    // An empty object passes only where nothing is required: every answer requires something.
    const required = true;
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
    "(field prices: a list expected)",
  );
  const badItem = { ...prices(), prices: [{ date: "2026-11-19" }, { close: 2 }] };
  expect(fieldOf(() => checkAnswer("getPrices", badItem))).toContain("(field prices[1].date)");
  expect(fieldOf(() => checkAnswer("getPrices", { ...prices(), attribution: {} }))).toContain(
    "(field attribution.source_label)",
  );
  // reason is an object or null (o?): both fine, a string is not.
  expect(() =>
    checkAnswer("getPrices", { ...prices(), reason: { code: "no_results", message: "y" } }),
  ).not.toThrow();
  expect(fieldOf(() => checkAnswer("getPrices", { ...prices(), reason: "none" }))).toContain(
    "(field reason: an object or empty (null) expected)",
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

test("without the contract (checkAnswers off), only numbers and text are checked", () => {
  expect(checkAnswer("getPrices", { prices: [] }, false)).toEqual({ prices: [] });
  expect(() => checkAnswer("getPrices", { x: -Infinity }, false)).toThrow(BadResponseError);
});

const financials = (periods: Record<string, unknown>[]) => ({
  fields: [{ key: "sales", label: "売上高", unit: "jpy" }],
  edinet_code: "E02144",
  periods,
  reason: null,
  attribution: ATTRIBUTION,
});
const period = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  fiscal_year: "2025/03",
  accounting_standard: "IFRS",
  is_consolidated: true,
  scope_exceptions: [],
  standard_exceptions: {},
  sales: 48_036_704_000_000,
  net_income: null,
  ...over,
});

/** The refusal of `body` as /financials, in both languages. */
function refusal(body: unknown): { en: string; ja: string } {
  try {
    checkAnswer("getFinancials", body);
  } catch (e) {
    expect(e).toBeInstanceOf(BadResponseError);
    expect((e as BadResponseError).kind).toBe("field");
    return { en: (e as BadResponseError).message, ja: (e as BadResponseError).localized("ja") };
  }
  throw new Error("expected a refusal");
}

describe("every value has the contract's type", () => {
  it("number or null: a number sent as text, a boolean or an object is refused naming the field", () => {
    const bad: [unknown, string][] = [
      ["43111480267765", "text"],
      [true, "boolean"],
      [{ value: 1 }, "object"],
      [[1], "array"],
    ];
    for (const [value] of bad) {
      expect(
        refusal(financials([period(), period({ fiscal_year: "2024/03", sales: value })])),
      ).toEqual({
        en: "Unexpected answer from the API (field periods[1].sales: a number or empty (null) expected)",
        ja: "APIの応答が想定と異なります（項目 periods[1].sales は数値または空（null）のはずです）",
      });
    }
    // null, absent (a nullable scalar reads as null) and any number pass.
    const { sales: _drop, ...noSales } = period();
    expect(() =>
      checkAnswer(
        "getFinancials",
        financials([noSales, period({ fiscal_year: "2024/03", sales: -0.5 })]),
      ),
    ).not.toThrow();
  });

  it("string: a number where text is due is refused", () => {
    expect(refusal(financials([period({ fiscal_year: 2025 })])).en).toBe(
      "Unexpected answer from the API (field periods[0].fiscal_year: text expected)",
    );
    expect(refusal({ ...financials([]), edinet_code: null }).en).toContain(
      "(field edinet_code: text expected)",
    );
  });

  it("integer: a fraction or text is refused, a whole number passes", () => {
    expect(checkAnswer("getUsage", { remaining: 3 })).toEqual({ remaining: 3 });
    expect(fieldOf(() => checkAnswer("getUsage", { remaining: 1.5 }))).toBe(
      "Unexpected answer from the API (field remaining: a whole number expected)",
    );
    expect(fieldOf(() => checkAnswer("getUsage", { remaining: "3" }))).toContain(
      "(field remaining: a whole number expected)",
    );
    expect(fieldOf(() => checkAnswer("getUsage", { remaining: 3, used: 2.5 }))).toContain(
      "(field used: a whole number expected)",
    );
  });

  it("boolean: text is refused", () => {
    expect(refusal(financials([period({ is_consolidated: "true" })])).en).toBe(
      "Unexpected answer from the API (field periods[0].is_consolidated: true or false expected)",
    );
  });

  it("enum: a value outside the contract's list is refused; null only where the contract allows it", () => {
    expect(refusal(financials([period({ quarter: "Q5" })])).en).toBe(
      "Unexpected answer from the API (field periods[0].quarter: one of Q1, Q2, Q3, Q4, … expected)",
    );
    expect(refusal(financials([period({ accounting_standard: "JMIS" })])).ja).toBe(
      "APIの応答が想定と異なります（項目 periods[0].accounting_standard はJ-GAAP, IFRS, US-GAAPのいずれかのはずです）",
    );
    expect(refusal(financials([period({ accounting_standard: null })])).en).toContain(
      "(field periods[0].accounting_standard: one of J-GAAP, IFRS, US-GAAP expected)",
    );
    const dividends = (change_type: unknown) => ({
      fields: [],
      edinet_code: "E02144",
      security_code: "7203",
      records: [{ fiscal_year: 2025, change_type, source_refs: [] }],
      reason: null,
      attribution: ATTRIBUTION,
    });
    expect(() => checkAnswer("getDividends", dividends(null))).not.toThrow();
    expect(() => checkAnswer("getDividends", dividends("increase"))).not.toThrow();
    expect(() => checkAnswer("getDividends", dividends("up"))).toThrow(
      "(field records[0].change_type: one of new, increase, decrease, flat, … expected)",
    );
  });

  it("nested objects and arrays: items and properties are checked at every depth", () => {
    expect(refusal(financials([period({ scope_exceptions: ["sales", 7] })])).en).toContain(
      "(field periods[0].scope_exceptions[1]: text expected)",
    );
    expect(refusal(financials([period({ standard_exceptions: { IFRS: "sales" } })])).en).toContain(
      "(field periods[0].standard_exceptions.IFRS: a list expected)",
    );
    expect(refusal(financials([period({ standard_exceptions: [] })])).en).toContain(
      "(field periods[0].standard_exceptions: an object expected)",
    );
    expect(refusal(financials(["2025/03" as unknown as Record<string, unknown>])).en).toContain(
      "(field periods[0]: an object expected)",
    );
    expect(
      refusal({ ...financials([]), fields: [{ key: "sales", label: "売上高", unit: 1 }] }).en,
    ).toContain("(field fields[0].unit: text expected)");
  });

  it("number or text (an XBRL fact's value): either passes, anything else is refused", () => {
    const doc = (value: unknown) => ({
      xbrl_facts: [{ element_name: "NetSales", context: null, period: null, value, unit: null }],
      attribution: { ...ATTRIBUTION, source: "edinet" },
    });
    expect(() => checkAnswer("getDisclosure", doc(12))).not.toThrow();
    expect(() => checkAnswer("getDisclosure", doc("12"))).not.toThrow();
    expect(() => checkAnswer("getDisclosure", doc(false))).toThrow(
      "(field xbrl_facts[0].value: text or a number expected)",
    );
  });

  it("fields the contract does not name are kept whatever their type, rows' included", () => {
    const body = financials([period({ added_2027: { any: ["shape", 1, true] } })]);
    const withTop = { ...body, added_top: "x" };
    expect(checkAnswer("getFinancials", withTop)).toBe(withTop);
  });
});

describe("a period or date twice", () => {
  it("two rows for one fiscal year with different figures are refused, naming both", () => {
    const body = financials([period(), period({ fiscal_year: "2024/03" }), period({ sales: 1 })]);
    expect(refusal(body)).toEqual({
      en: "Unexpected answer from the API (field periods[2]: the same period as periods[0] with other figures)",
      ja: "APIの応答が想定と異なります（項目 periods[2] が periods[0] と同じ期間で数値が異なります）",
    });
  });

  it("identical rows are kept once, in a copy; quarters of one fiscal year are distinct rows", () => {
    const body = financials([period(), period({ fiscal_year: "2024/03" }), period()]);
    const out = checkAnswer("getFinancials", body) as { periods: unknown[] };
    expect(out.periods).toEqual([period(), period({ fiscal_year: "2024/03" })]);
    expect(body.periods).toHaveLength(3);
    const quarters = financials([
      period({ quarter: "Q1", sales: 1 }),
      period({ quarter: "Q2", sales: 2 }),
    ]);
    expect(checkAnswer("getFinancials", quarters)).toBe(quarters);
    // Key order does not make two rows differ.
    const reordered = Object.fromEntries(Object.entries(period()).reverse());
    expect(
      (checkAnswer("getFinancials", financials([period(), reordered])) as { periods: unknown[] })
        .periods,
    ).toHaveLength(1);
  });

  it("two price rows for one date, two units for one key: refused when they differ", () => {
    const twoCloses = {
      ...prices(),
      prices: [
        { date: "2026-11-19", close: 1 },
        { date: "2026-11-19", close: 2 },
      ],
    };
    expect(fieldOf(() => checkAnswer("getPrices", twoCloses))).toContain(
      "(field prices[1]: the same period as prices[0] with other figures)",
    );
    const twoUnits = {
      ...prices(),
      fields: [...prices().fields, { key: "close", label: "終値", unit: "thousand_jpy" }],
    };
    expect(fieldOf(() => checkAnswer("getPrices", twoUnits))).toContain("(field fields[1]:");
    const segments = (names: string[]) => ({
      fields: [],
      segments: names.map((segment_name) => ({
        fiscal_year: "2025/03",
        quarter: null,
        segment_name,
        revenue: names.length,
      })),
      reason: null,
      attribution: ATTRIBUTION,
    });
    expect(() => checkAnswer("getSegments", segments(["Auto", "Finance"]))).not.toThrow();
  });

  it("every identity key is a property of its list's items in openapi.json", () => {
    const doc = JSON.parse(
      fs.readFileSync(path.join(__dirname, "../../src/contract/openapi.json"), "utf8"),
    ) as {
      paths: Record<
        string,
        {
          get: {
            operationId: string;
            responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
          };
        }
      >;
      components: {
        schemas: Record<
          string,
          { properties: Record<string, { items?: { $ref?: string } }>; required?: string[] }
        >;
      };
    };
    const schema = (ref: string) => doc.components.schemas[ref.split("/").pop() as string];
    const ops = Object.values(doc.paths).map((p) => p.get);
    for (const [op, lists] of Object.entries(ROW_IDENTITY)) {
      const root = ops.find((o) => o.operationId === op)?.responses["200"]?.content[
        "application/json"
      ]?.schema;
      for (const [list, keys] of Object.entries(lists ?? {})) {
        const itemRef = schema(root?.$ref ?? "")?.properties[list]?.items?.$ref;
        const item = schema(itemRef ?? "");
        expect([op, list, keys.filter((k) => item?.properties[k] === undefined)]).toEqual([
          op,
          list,
          [],
        ]);
      }
    }
  });
});

describe("the sandbox's answers (valid by Ajv in test/sandbox/contract.test.ts) all pass, unchanged", () => {
  jest.setTimeout(120_000);
  const sandbox = makeSandbox();

  it("one answer of every operation, period kinds and empty answers included", async () => {
    const body = async (p: string): Promise<Record<string, unknown>> => {
      const answer = await get(sandbox, `/v1${p}`);
      expect([p, answer.status]).toEqual([p, 200]);
      return answer.body as Record<string, unknown>;
    };
    const edinet = (await body("/financials?security_code=7203&years=1"))["edinet_code"] as string;
    const list = (await body("/securities/7203/disclosures?limit=100"))["disclosures"] as {
      doc_id: string;
      source: string;
    }[];
    const doc = list.find((d) => d.source === "edinet")?.doc_id ?? "";
    const officers = (await body("/securities/7203/officers"))["officers"] as {
      person_id: string;
    }[];
    const person = officers[0]?.person_id ?? "";
    const cases: [OperationId, string][] = [
      ["getScreening", "/screening?sort_by=marketCap&limit=20"],
      ["getScreeningFields", "/screening/fields"],
      ["getUsage", "/usage"],
      ["listSecurities", "/securities?limit=50"],
      ["getPrices", "/securities/7203/prices?from=2025-01-01&limit=500"],
      ["getPrices", "/securities/7203/prices?from=2005-01-01&to=2005-01-02"],
      ["getRankings", "/rankings/gainers"],
      ["getValuations", "/valuations?security_code=7203&years=30"],
      ["getFinancials", "/financials?security_code=7203&years=30"],
      ["getFinancials", `/financials?edinet_code=${edinet}&period=quarterly&years=30`],
      ["getFinancials", `/financials?edinet_code=${edinet}&period=semiannual&years=30`],
      ["getFinancials", "/financials?security_code=7203&as_of=2004/01"],
      ["getSegments", `/segments?edinet_code=${edinet}`],
      ["getSegments", `/segments?edinet_code=${edinet}&period=quarter`],
      ["getDividends", `/dividends?edinet_code=${edinet}`],
      ["getOrganization", `/organizations/${edinet}`],
      ["getPeers", "/peers?security_code=7203"],
      ["listSecurityDisclosures", "/securities/7203/disclosures?limit=100"],
      ["getDisclosure", `/disclosures/${doc}`],
      ["getDisclosureSection", `/disclosures/${doc}/sections/business_overview`],
      ["getOfficers", "/securities/7203/officers"],
      ["getPerson", `/persons/${person}`],
      ["getPersonAppointments", `/persons/${person}/appointments`],
      ["getPersonCompensationHistory", `/persons/${person}/compensation-history`],
      ["getWeeklyMarginBalance", "/securities/7203/weekly-margin-balance"],
      ["getJsfMarginDaily", "/securities/7203/jsf-margin-daily"],
    ];
    expect(new Set(cases.map(([op]) => op))).toEqual(new Set(Object.keys(RESPONSE_ROOTS)));
    for (const [op, p] of cases) {
      const answer = await body(p);
      let outcome: unknown;
      try {
        outcome = checkAnswer(op, answer) === answer ? "unchanged" : "copied";
      } catch (e) {
        outcome = (e as Error).message;
      }
      expect([op, p, outcome]).toEqual([op, p, "unchanged"]);
    }
  });
});
