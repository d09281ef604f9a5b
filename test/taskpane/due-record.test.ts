// The workbook's due record: which cells a desktop open leaves as saved (their data cannot have changed yet) and which it recalculates, the expiries a runtime's answers give, and what is kept for the next open.

import {
  companyArgument,
  mergeDueRecord,
  parseDueRecord,
  planOpen,
  sessionDues,
  storedGroups,
  type DueRecord,
} from "../../taskpane/open/due-record";
import type { OpenCell } from "../../taskpane/open/open-cell";
import { MemoryCacheStore, createClient, nextClose } from "../../src/client";

const NOW = Date.parse("2026-11-21T00:00:00Z");
const LATER = NOW + 3_600_000;
const EARLIER = NOW - 3_600_000;

const cell = (address: string, formula: string, value: unknown = 1): OpenCell => ({
  sheet: "Model",
  address,
  formula,
  value,
});

const record = (due: Record<string, number>): DueRecord => ({ v: 1, due });

test("without a record every cell is recalculated (a workbook saved before it, or elsewhere)", () => {
  const cells = [
    cell("B2", '=KAISHA.FINANCIAL("7203","sales")'),
    cell("C2", "=KAISHA.PRICE(7203)"),
  ];
  const plan = planOpen(cells, undefined, new Map(), NOW);
  expect(plan.recalculate).toEqual(cells);
  expect(plan.kept).toEqual([]);
});

test("a cell is left as saved only while every answer behind it is fresh; a due one is recalculated", () => {
  const cells = [
    cell("B2", '=KAISHA.FINANCIAL("7203","sales")'),
    cell("C2", "=KAISHA.PRICE(7203)"),
    cell("B3", '=KAISHA.FINANCIAL("6758","sales")'),
  ];
  const plan = planOpen(
    cells,
    record({ "7203|getFinancials": LATER, "7203|getPrices": EARLIER, "6758|getFinancials": NOW }),
    new Map(),
    NOW,
  );
  expect(plan.kept.map((c) => c.address)).toEqual(["B2"]);
  // A close since (EARLIER), and an expiry reached exactly now: recalculated.
  expect(plan.recalculate.map((c) => c.address)).toEqual(["C2", "B3"]);
  expect([...plan.keptGroups]).toEqual(["7203|getFinancials"]);
});

test("cells the record cannot vouch for are recalculated: an error shown, a wrapped call, another function, a company not in it", () => {
  const due = record({ "7203|getFinancials": LATER, "7203|getPrices": LATER });
  const cells = [
    cell("B2", '=KAISHA.FINANCIAL("7203","sales")', "#N/A"),
    cell("B3", '=KAISHA.FINANCIAL("7203","sales")', "#BUSY!"),
    cell("B4", '=KAISHA.FINANCIAL("7203","sales")', { type: "Error", errorType: "Busy" }),
    cell("B5", "=IFERROR(KAISHA.PRICE(7203),0)", 0),
    cell("B6", "=KAISHA.PRICE(7203)*2", 4),
    cell("B7", '=KAISHA.COMPANY("7203","name")', "Toyota"),
    cell("B8", '=KAISHA.FINANCIAL("9999","sales")'),
    cell("B9", "=KAISHA.PRICE(7203)", 2_500),
  ];
  const plan = planOpen(cells, due, new Map(), NOW);
  expect(plan.kept.map((c) => c.address)).toEqual(["B9"]);
  expect(plan.recalculate).toHaveLength(7);
});

test("a company named by a cell is read at open: its value decides, and a reference not read is recalculated", () => {
  const due = record({ "7203|getPrices": LATER, "E02144|getPrices": LATER });
  const cells = [
    cell("C2", "=KAISHA.PRICE($A2)"),
    cell("C3", "=KAISHA.PRICE(A3)"),
    cell("C4", "=KAISHA.PRICE('Code list'!$B$9)"),
    cell("C5", "=KAISHA.PRICE(A5)"),
    cell("C6", "=KAISHA.PRICE(A2:A3)"),
  ];
  const values = new Map<string, unknown>([
    ["Model!A2", 7203],
    ["Model!A3", "6758"],
    ["Code list!B9", "e02144"],
  ]);
  const plan = planOpen(cells, due, values, NOW);
  expect(plan.kept.map((c) => c.address)).toEqual(["C2", "C4"]);
  expect(plan.recalculate.map((c) => c.address)).toEqual(["C3", "C5", "C6"]);
  expect(companyArgument({ sheet: "Model", formula: "=KAISHA.PRICE('Code list'!$B$9)" })).toEqual({
    ref: "Code list!B9",
  });
});

test("DIVIDENDS reads /dividends or the financials it falls back to: the earlier of the two decides", () => {
  const cells = [cell("E2", '=KAISHA.DIVIDENDS("7203")')];
  expect(
    planOpen(
      cells,
      record({ "7203|getDividends": LATER, "7203|getFinancials": EARLIER }),
      new Map(),
      NOW,
    ).recalculate,
  ).toHaveLength(1);
  expect(planOpen(cells, record({ "7203|getDividends": LATER }), new Map(), NOW).kept).toHaveLength(
    1,
  );
});

test("a runtime's expiries: the answers it holds (their decided freshUntil, else due), under every code naming the company", () => {
  const dues = sessionDues([
    ["abc/securities/7203/prices?limit=1", { body: {}, storedAt: EARLIER, freshUntil: LATER }],
    [
      "abc/financials?security_code=7203&years=30",
      {
        body: { edinet_code: "E02144", security_code: "7203" },
        storedAt: EARLIER,
        freshUntil: LATER,
      },
    ],
    [
      "abc/financials?period=quarterly&security_code=7203&years=30",
      { body: {}, storedAt: EARLIER, freshUntil: NOW },
    ],
    // No expiry decided (no cell read it from memory): due, so it vouches for nothing.
    ["abc/valuations?security_code=7203&years=50", { body: {}, storedAt: EARLIER }],
    [
      "abc/financials?period=quarterly&security_code=6758&years=30",
      { body: {}, storedAt: EARLIER },
    ],
    [
      "abc/financials?security_code=6758&years=30",
      { body: {}, storedAt: EARLIER, freshUntil: LATER },
    ],
    [
      "abc/securities/7203/disclosures?from=2025-01-01",
      { body: {}, storedAt: EARLIER, freshUntil: LATER },
    ],
  ]);
  expect(Object.fromEntries(dues)).toEqual({
    "7203|getPrices": LATER,
    "7203|getFinancials": NOW,
    "E02144|getFinancials": LATER,
    "7203|getValuations": 0,
    "6758|getFinancials": 0,
  });
});

test("what is kept for the next open: this session's expiries, the old record's for the cells left as saved, nothing already due", () => {
  const old = record({
    "7203|getFinancials": LATER + 5,
    "6758|getFinancials": LATER,
    "9984|getPrices": LATER,
  });
  const session = new Map([
    ["7203|getFinancials", LATER + 9],
    ["7203|getPrices", EARLIER],
    ["8306|getPrices", LATER],
  ]);
  const merged = mergeDueRecord(
    old,
    session,
    new Set(["7203|getFinancials", "6758|getFinancials"]),
    NOW,
  );
  expect(merged).toEqual({
    v: 1,
    due: {
      // Kept cells still show what the old record vouched for: the earlier of the two.
      "7203|getFinancials": LATER + 5,
      "6758|getFinancials": LATER,
      "8306|getPrices": LATER,
      // 7203's prices are due (left out: recalculated next time); 9984's cells were recalculated
      // and read nothing this session: left out.
    },
  });
});

test("a setting this version did not write is no record", () => {
  expect(parseDueRecord(undefined)).toBeUndefined();
  expect(parseDueRecord("{not json")).toBeUndefined();
  expect(parseDueRecord({ v: 2, due: {} })).toBeUndefined();
  expect(parseDueRecord({ v: 1, due: { a: 1, b: "x", c: Number.NaN } })).toEqual({
    v: 1,
    due: { a: 1 },
  });
  expect(parseDueRecord(JSON.stringify({ v: 1, due: { a: 2 } }))).toEqual({ v: 1, due: { a: 2 } });
});

test("a workbook saved on another computer (or after this store was cleared): cells whose answers this store does not hold are recalculated", () => {
  const due = record({
    "7203|getFinancials": LATER,
    "7203|getPrices": LATER,
    "6758|getPrices": LATER,
  });
  const cells = [
    cell("B2", '=KAISHA.FINANCIAL("7203","sales")'),
    cell("C2", "=KAISHA.PRICE(7203)"),
    cell("C3", "=KAISHA.PRICE(6758)"),
  ];
  // The store's keys alone (no answer read): 7203's financials and prices are held, 6758's not.
  const stored = storedGroups([
    "abc123/financials?security_code=7203&years=30",
    "abc123/securities/7203/prices?limit=1",
    "abc123/securities/7203/disclosures?from=2025-01-01",
  ]);
  expect([...stored].sort()).toEqual(["7203|getFinancials", "7203|getPrices"]);
  const plan = planOpen(cells, due, new Map(), NOW, stored);
  expect(plan.kept.map((c) => c.address)).toEqual(["B2", "C2"]);
  expect(plan.recalculate.map((c) => c.address)).toEqual(["C3"]);
  // Nothing stored at all: every cell.
  expect(planOpen(cells, due, new Map(), NOW, new Set()).recalculate).toHaveLength(3);
});

test("a price answer no cell read from memory (they shared its request): until the next close, or a closed range's weekly slot", () => {
  // Thursday 15 January 2026, 10:00 JST.
  const at = Date.UTC(2026, 0, 15, 1, 0);
  const dues = sessionDues([
    ["abc/securities/7203/prices?limit=1", { body: {}, storedAt: at }],
    [
      "abc/securities/6758/prices?from=2025-01-01&limit=500&to=2025-12-30",
      { body: {}, storedAt: at },
    ],
  ]);
  expect(dues.get("7203|getPrices")).toBe(nextClose(at));
  expect(nextClose(at)).toBe(Date.UTC(2026, 0, 15, 6, 30));
  // A closed range changes only with a split: not due the next day, but on the company's slot.
  expect(dues.get("6758|getPrices")).toBeGreaterThan(at + 86_400_000);
});

test("a closed price range's expiry in the record is the one the client decides for the answer", async () => {
  const at = Date.UTC(2026, 0, 15, 1, 0);
  const store = new MemoryCacheStore();
  const client = createClient({
    apiKey: "test-key",
    now: () => at,
    cacheStore: store,
    fetch: async () =>
      new Response(
        JSON.stringify({
          fields: [],
          code: "6758",
          prices: [{ date: "2025-12-30", close: 100 }],
          attribution: { source: "test", license: "test", url: "https://example.com" },
        }),
        { status: 200, headers: { "content-type": "application/json" } },
      ),
  });
  const query = { code: "6758", from: "2025-12-01", to: "2025-12-30" };
  await client.prices(query);
  // A cell reading it from memory: the client decides its expiry (CacheEntry.freshUntil).
  expect(client.peek("getPrices", query)).toBeDefined();
  const keys = await store.keys();
  expect(keys).toHaveLength(1);
  const key = keys[0] as string;
  const decided = store.peek(key)?.freshUntil;
  expect(decided).toBeGreaterThan(at + 86_400_000);
  // No cell read it from memory: the record decides by the same rule.
  const dues = sessionDues([[key, { body: {}, storedAt: at }]]);
  expect(dues.get("6758|getPrices")).toBe(decided);
});
