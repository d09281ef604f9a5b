// The English label table: every metric of the screening catalogue and every field of the contract
// reads in English in the English pane, never a Japanese label or a raw key.
import { FIELD_DICTIONARY } from "../../src/contract/generated/fields";
import { SCREENING_FIELDS } from "../../sandbox/data/screening-metrics";
import { tableLabel } from "../../taskpane/state/english-labels";
import { englishLabel, searchItems } from "../../taskpane/state/metric-labels";
import { metricText } from "../../taskpane/components/metric-picker";

const JAPANESE = /[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]/;

test("every numeric metric of /screening/fields has an English label in the table", () => {
  const numeric = SCREENING_FIELDS.filter((f) => f.type === "numeric");
  expect(numeric.length).toBeGreaterThan(20);
  const missing = numeric.filter((f) => tableLabel(f.key) === undefined).map((f) => f.key);
  expect(missing).toEqual([]);
});

test("every field of the contract's field dictionary has an English label in the table", () => {
  const keys = [...new Set(Object.values(FIELD_DICTIONARY).flatMap((fs) => fs.map((f) => f.key)))];
  expect(keys.length).toBeGreaterThan(150);
  expect(keys.filter((k) => tableLabel(k) === undefined)).toEqual([]);
});

test("the live catalogue's technical and margin metrics have English labels too", () => {
  for (const key of [
    "rsi",
    "sma25GapPct",
    "bbp",
    "marginBuyBalance",
    "marginRatio",
    "jsfLoanRatio",
  ])
    expect({ key, label: tableLabel(key) }).toEqual({ key, label: expect.any(String) });
});

test("English labels carry no Japanese and no raw keys", () => {
  const keys = [
    ...SCREENING_FIELDS.filter((f) => f.type === "numeric").map((f) => f.key),
    ...Object.values(FIELD_DICTIONARY).flatMap((fs) => fs.map((f) => f.key)),
  ];
  for (const key of keys) {
    const label = englishLabel(key);
    expect({ key, japanese: JAPANESE.test(label) }).toEqual({ key, japanese: false });
    expect({ key, snake: /_/.test(label) }).toEqual({ key, snake: false });
  }
});

test("the English pane shows PER, not 「PER（実績）」; the Japanese pane the API's own label", () => {
  const per = SCREENING_FIELDS.find((f) => f.key === "per");
  const yieldField = SCREENING_FIELDS.find((f) => f.key === "dividendYield");
  if (!per || !yieldField) throw new Error("sandbox catalogue changed");
  expect(metricText(per, "en")).toBe("PER");
  expect(metricText(per, "ja")).toBe("PER（実績）");
  expect(metricText(yieldField, "en")).toBe("Dividend yield");
  expect(englishLabel("marketCap")).toBe(englishLabel("market_cap"));
});

test("a metric the table does not know yet still reads as words, and search finds it in English", () => {
  expect(englishLabel("newMetricPct")).toBe("New metric pct");
  const items = [
    { key: "netIncome", label: "親会社株主に帰属する当期純利益" },
    { key: "sales", label: "売上高" },
  ];
  expect(searchItems(items, "net income").map((i) => i.key)).toEqual(["netIncome"]);
  expect(searchItems(items, "売上").map((i) => i.key)).toEqual(["sales"]);
});
