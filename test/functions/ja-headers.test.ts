// Japanese headers (the user's header language): every column of every table function has a
// Japanese label, and title rows (headers 2) speak Japanese too.
import * as KAISHA from "../../functions/index";
import { call } from "./call-by-name";
import { resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

type Grid = unknown[][];
type Fn = Parameters<typeof call>[0];

/** [function, first argument, named arguments]: every table function with a header row. */
const TABLES: [string, Fn, unknown, Record<string, unknown>][] = [
  [
    "FINANCIALS",
    KAISHA.FINANCIALS,
    "7203",
    { items: "*", layout: "periods_down", period: "quarterly" },
  ],
  ["VALUATION", KAISHA.VALUATION, "7203", { fields: "*" }],
  ["PRICES", KAISHA.PRICES, "7203", { fields: "*" }],
  ["RANKINGS", KAISHA.RANKINGS, "gainers", {}],
  ["SCREEN", KAISHA.SCREEN, "per:lte:15,equityRatio:gte:0.3", { sort_by: "marketCap" }],
  ["SCREENFIELDS", KAISHA.SCREENFIELDS, 1, {}],
  ["FIELDS", KAISHA.FIELDS, "financials", {}],
  ["SECURITIES", KAISHA.SECURITIES, "72", {}],
  ["SEGMENTS", KAISHA.SEGMENTS, "7203", { period: "quarter" }],
  ["DIVIDENDS", KAISHA.DIVIDENDS, "7203", {}],
  ["PEERS", KAISHA.PEERS, "7203", {}],
  ["DISCLOSURES", KAISHA.DISCLOSURES, "7203", {}],
  ["OFFICERS", KAISHA.OFFICERS, "7203", {}],
  ["MARGIN", KAISHA.MARGIN, "7203", {}],
  ["JSFMARGIN", KAISHA.JSFMARGIN, "7203", {}],
];

test.each(TABLES)(
  "%s: every header has a Japanese label and the title row is Japanese",
  async (_name, fn, first, named) => {
    useSandbox({ headerLanguage: "keys" });
    const keys = (await call<Grid>(fn, first, { ...named, headers: 1 }))[0] as string[];
    useSandbox({ headerLanguage: "ja" });
    const grid = await call<Grid>(fn, first, { ...named, headers: 2 });
    const ja = grid[1] as string[];
    const missing = keys.filter((k, i) => ja[i] === k);
    expect(missing).toEqual([]);
    expect(String(grid[0]?.[1])).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  },
);

test("DOCUMENT parts, PERSON, APPOINTMENTS, COMPENSATION", async () => {
  useSandbox({ headerLanguage: "keys" });
  const list = await call<Grid>(KAISHA.DISCLOSURES, "7203", {
    document_type: "有価証券報告書",
    limit: 1,
  });
  const docId = list[1]?.[(list[0] as string[]).indexOf("doc_id")];
  const officers = await call<Grid>(KAISHA.OFFICERS, "7203");
  const ids = officers.slice(1).map((r) => r[0]);
  const cases: [Fn, unknown, Record<string, unknown>][] = [
    [KAISHA.DOCUMENT, docId, {}],
    [KAISHA.DOCUMENT, docId, { part: "xbrl" }],
    [KAISHA.DOCUMENT, docId, { part: "sections" }],
    [KAISHA.DOCUMENT, docId, { part: "available_sections" }],
    [KAISHA.PERSON, ids[0], {}],
    [KAISHA.APPOINTMENTS, ids[0], {}],
  ];
  for (const id of ids) {
    const comp = await call<unknown>(KAISHA.COMPENSATION, id).catch(() => undefined);
    if (comp !== undefined) {
      cases.push([KAISHA.COMPENSATION, id, {}]);
      break;
    }
  }
  expect(cases).toHaveLength(7);
  for (const [fn, first, named] of cases) {
    useSandbox({ headerLanguage: "keys" });
    const keys = (await call<Grid>(fn, first, { ...named, headers: 1 }))[0] as string[];
    useSandbox({ headerLanguage: "ja" });
    const grid = await call<Grid>(fn, first, { ...named, headers: 2 });
    expect([fn.name, keys.filter((k, i) => (grid[1] as string[])[i] === k)]).toEqual([fn.name, []]);
    expect([fn.name, String(grid[0]?.[1])]).toEqual([
      fn.name,
      expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9fff]/),
    ]);
  }
});
