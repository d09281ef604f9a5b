// Names users type for fields, items and metrics: keys, Japanese labels, snake/camel forms, typos.
import {
  comparableName,
  datasetNames,
  fieldKey,
  fieldsWhere,
  FieldNameError,
  nearestName,
  resolveName,
  snakeToCamel,
} from "../../src/excel/field-names";

const financials = datasetNames("financials");

describe("resolveName", () => {
  test.each([
    ["sales", "sales"],
    ["Sales", "sales"],
    ["売上高", "sales"],
    [" 売上高 ", "sales"],
    ["operatingProfit", "operating_profit"],
    ["OPERATING_PROFIT", "operating_profit"],
    ["ｏｐｅｒａｔｉｎｇ＿ｐｒｏｆｉｔ", "operating_profit"],
    ["営業利益", "operating_profit"],
    ["EPS（1株当たり利益）", "eps"],
    ["EPS(1株当たり利益)", "eps"],
    ["親会社株主に帰属する当期純利益", "net_income"],
    ["営業キャッシュフロー", "operating_cf"],
  ])("%s -> %s", (typed, key) => {
    expect(resolveName(typed, financials)).toEqual({ ok: true, key });
  });

  test("a label shared by two keys is ambiguous, never a guess", () => {
    const match = resolveName("株価", [
      { key: "close", label: "株価" },
      { key: "stock_price", label: "株価" },
    ]);
    expect(match).toEqual({ ok: false, reason: "ambiguous", keys: ["close", "stock_price"] });
  });

  test("valuations, prices, dividends, segments labels resolve in their own dataset", () => {
    for (const dataset of [
      "valuations",
      "prices",
      "dividends",
      "segments",
      "margin",
      "jsf",
    ] as const) {
      for (const c of datasetNames(dataset)) {
        expect([dataset, resolveName(c.label ?? c.key, datasetNames(dataset))]).toEqual([
          dataset,
          { ok: true, key: c.key },
        ]);
      }
    }
  });
});

describe("nearestName: the suggestion on a typo", () => {
  test.each([
    ["operating_income", "operating_profit"],
    ["revenue", "sales"],
    ["sale", "sales"],
    ["netincome2", "net_income"],
    ["total_asset", "total_assets"],
    ["capex", "capital_expenditure"],
    ["売上", "sales"],
    ["営業利", "operating_profit"],
  ])("%s -> %s", (typed, key) => {
    expect(nearestName(typed, financials)?.key).toBe(key);
  });

  test("segments: operating_profit suggests the segment key operating_income", () => {
    expect(nearestName("operating_profit", datasetNames("segments"))?.key).toBe("operating_income");
  });

  test("nothing close: no wild guess", () => {
    expect(nearestName("zzzzzzzz", financials)).toBeUndefined();
  });

  test("a text far longer than any name (pasted into the cell) suggests nothing; a name with a few extra letters still does", () => {
    expect(nearestName("operating_profit".repeat(60), financials)).toBeUndefined();
    expect(nearestName("7".repeat(1000), financials)).toBeUndefined();
    expect(nearestName("operating_profitt", financials)?.key).toBe("operating_profit");
    expect(nearestName("xxoperating_profitxx", financials)?.key).toBe("operating_profit");
  });
});

describe("FieldNameError", () => {
  test("bilingual, names what was typed and the nearest key with its label", () => {
    expect.assertions(4);
    try {
      fieldKey("operating_income", financials, "item", fieldsWhere("financials"));
    } catch (err) {
      const e = err as FieldNameError;
      expect(e).toBeInstanceOf(FieldNameError);
      expect(e.message).toBe(
        'item "operating_income": did you mean operating_profit (営業利益)? Keys: a key or Japanese label from =KAISHA.FIELDS("financials"), comma separated, or "*"',
      );
      expect(e.messageJa).toContain("operating_profit（営業利益）のことですか？");
      expect(e.suggestion).toBe("operating_profit");
    }
  });

  test("no suggestion: says it is not a key and where the keys are", () => {
    expect(() => fieldKey("zzzz", financials, "items", fieldsWhere("financials"))).toThrow(
      /items "zzzz" is not a key: use .*FIELDS\("financials"\)/,
    );
  });
});

test("snakeToCamel and comparableName", () => {
  expect(snakeToCamel("market_cap")).toBe("marketCap");
  expect(snakeToCamel("sma25_gap_pct")).toBe("sma25GapPct");
  expect(snakeToCamel("per")).toBe("per");
  expect(comparableName("Market_Cap")).toBe(comparableName("marketCap"));
});
