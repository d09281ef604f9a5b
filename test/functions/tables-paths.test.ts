// A table function gives the same table (or the same error message) on each of its paths: full (a
// cold session), warm (the same session again, from memory) and waiting for another cell's fetch
// (a fresh session, every cell asked at once), with the same requests, for many companies and
// argument combinations, in both header languages and with and without formatted numbers.
import { valuation } from "../../functions/valuation";
import type { Cell } from "../../src/excel/values";
import { prices } from "../../functions/prices";
import { financials } from "../../functions/financials";
import { segments } from "../../functions/segments";
import { dividends } from "../../functions/dividends";
import { peers } from "../../functions/peers";
import { officers } from "../../functions/officers";
import { jsfMargin, margin } from "../../functions/margin";
import { appointments, compensation, person } from "../../functions/persons";
import { disclosures } from "../../functions/disclosures";
import { document, section } from "../../functions/document";
import { getDataset } from "../../sandbox/data";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import type { HeaderLanguage } from "../../src/excel/shape";
import { invocation, resetSession, settlesAtOnce, shown, useSandbox } from "./harness";

jest.setTimeout(300_000);
afterAll(resetSession);
afterEach(() => jest.useRealTimers());

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

/** One table cell: its arguments after the company, and whether memory answers it at once. */
interface Case {
  readonly args: readonly unknown[];
  /** An error found from the arguments and today alone: reported before any request. */
  readonly refused?: true;
}

/** A table function: the table itself when at hand (define-table.ts TableResult), else a promise. */
type TableFunction = (company: unknown, args: readonly unknown[]) => unknown;

const FUNCTIONS: Record<string, { call: TableFunction; cases: readonly Case[] }> = {
  VALUATION: {
    // fields, years, headers, order, as_of
    call: (c, a) => valuation(c, a[0], a[1], a[2], invocation(), a[3], a[4]),
    cases: [
      { args: [null, null, null, null, null] },
      { args: [null, 5, 2, "asc", null] },
      { args: ["per,pbr_adjusted,per_source", 3, 1, null, "FY-2"] },
      { args: ["*", 10, 0, null, "2023年度"] },
      { args: ["per", null, 1, null, "2020-06-30"] },
      { args: ["per_5y_avg", null, null, null, null] },
      { args: ["per", 3, 1, null, "FY-80"] }, // #N/A: before the history
      { args: ["per", 3, 1, null, "2099-01-01"], refused: true }, // #N/A: a date in the future, no request
      { args: ["per,per_5y_avg", null, null, null, null], refused: true }, // #VALUE!
      { args: ["no_such_field", null, null, null, null], refused: true }, // #VALUE!
      { args: [null, 51, null, null, null], refused: true }, // #VALUE!
    ],
  },
  PRICES: {
    // from, to, fields, order, headers
    call: (c, a) => prices(c, a[0], a[1], a[2], a[3], a[4], invocation()),
    cases: [
      { args: [null, null, null, null, null] }, // up to the latest day: the stored spill
      { args: ["2026-06-01", null, "close,volume", "desc", 2] },
      { args: ["2026-01-05", "2026-03-31", null, null, 2] },
      { args: ["2023-01-01", "2026-06-30", "adj_close", "desc", 0] }, // two pages
      { args: ["2004-01-01", "2005-02-01", "close", null, 1] }, // from before the history
      { args: [null, "2026-02-01", "close", null, 1] }, // the year up to `to`
      { args: ["2026-02-07", "2026-02-08", null, null, null] }, // #N/A: a weekend, no day
      { args: ["2099-01-01", null, null, null, null], refused: true }, // #N/A: from in the future
      { args: ["2026-03-01", "2026-02-01", null, null, null], refused: true }, // #VALUE!: from after to
      { args: [null, "2004-12-31", null, null, null], refused: true }, // #N/A: before 2005
      { args: [null, null, "no_such_field", null, null], refused: true }, // #VALUE!
    ],
  },
  FINANCIALS: {
    // items, period, years, as_of, unit, layout, headers, order
    call: (c, a) => financials(c, a[0], a[1], a[2], a[3], a[4], a[5], a[6], invocation(), a[7]),
    cases: [
      { args: [null, null, null, null, null, null, null, null] },
      {
        args: ["sales,net_income", "quarterly", 3, null, "million_jpy", "periods_down", 2, "desc"],
      },
      { args: [null, "semiannual", 5, "FY-2", null, null, 1, null] },
      { args: ["*", "annual", 30, "2023年度", "hundred_million_jpy", null, 2, null] },
      { args: ["sales,roe", null, 5, 2020, null, "periods_down", 0, "asc"] },
      { args: ["eps", "quarterly", 4, "FQ-3", null, null, 2, null] },
      { args: ["sales", null, 5, "2024-10-15", null, null, null, null] },
      { args: ["sales", null, 5, "2099-01-01", null, null, null, null], refused: true }, // #N/A: future
      { args: ["sales", null, 5, "FY-80", null, null, null, null] }, // #N/A: no such period
      { args: ["no_such_item", null, null, null, null, null, null, null], refused: true }, // #VALUE!
      { args: ["sales", "monthly", null, null, null, null, null, null], refused: true }, // #VALUE!
      { args: ["sales", null, 31, null, null, null, null, null], refused: true }, // #VALUE!
    ],
  },
  SEGMENTS: {
    // fiscal_year, period, unit, headers, order
    call: (c, a) => segments(c, a[0], a[1], a[2], a[3], invocation(), a[4]),
    cases: [
      { args: [null, null, null, null, null] },
      { args: [2024, "quarter", "million_jpy", 2, "desc"] },
      { args: ["FY-1", null, null, 1, null] },
      { args: ["2023年度", "annual", "hundred_million_jpy", 2, "asc"] },
      { args: [2005, null, null, 1, null] }, // a year outside the all-years answer: asked on its own
      { args: ["2099-01-01", null, null, null, null], refused: true }, // #N/A: future
      { args: ["FY-80", null, null, null, null] }, // #N/A: no such year
      { args: [1980, null, null, null, null], refused: true }, // #VALUE!: before 1990
      { args: [null, "monthly", null, null, null], refused: true }, // #VALUE!
    ],
  },
  DIVIDENDS: {
    // from_fiscal_year, to_fiscal_year, headers, order
    call: (c, a) => dividends(c, a[0], a[1], a[2], invocation(), a[3]),
    cases: [
      { args: [null, null, null, null] },
      { args: [2015, 2020, 2, "desc"] },
      { args: ["FY-3", null, 1, null] },
      { args: ["2020年度", "2024年度", 2, null] }, // read among the annual /financials years
      { args: ["2023Q2", null, 0, null] }, // among the quarterly ones
      { args: [2024, 2020, null, null], refused: true }, // #VALUE!: from after to
      { args: ["2099-01-01", null, null, null], refused: true }, // #N/A: future
      { args: ["FY-80", null, null, null] }, // #N/A: no such year
    ],
  },
  PEERS: {
    // limit, headers
    call: (c, a) => peers(c, a[0], a[1], invocation()),
    cases: [
      { args: [null, null] },
      { args: [3, 2] },
      { args: [20, 0] },
      { args: [21, null], refused: true }, // #VALUE!
    ],
  },
  OFFICERS: {
    // headers
    call: (c, a) => officers(c, a[0], invocation()),
    cases: [{ args: [null] }, { args: [2] }, { args: [0] }, { args: [3], refused: true }], // #VALUE!
  },
  MARGIN: {
    // period, headers, order
    call: (c, a) => margin(c, a[0], a[1], invocation(), a[2]),
    cases: [
      { args: [null, null, null] },
      { args: ["26w", 2, "desc"] },
      { args: ["52w", 0, "asc"] },
      { args: ["13w", null, null], refused: true }, // #VALUE!
    ],
  },
  JSFMARGIN: {
    // period, to, exchange, table, headers, order
    call: (c, a) => jsfMargin(c, a[0], a[1], a[2], a[3], a[4], invocation(), a[5]),
    cases: [
      { args: [null, null, null, null, null, null] },
      { args: ["3m", "2026-09-30", null, "reverse", 2, "desc"] },
      { args: ["1m", null, "XNGO", "other_exchange_reverse", 1, null] },
      { args: ["6m", null, null, "days", 0, "asc"] },
      { args: [null, "2099-01-01", null, null, null, null], refused: true }, // #N/A: future
      { args: ["2y", null, null, null, null, null], refused: true }, // #VALUE!
    ],
  },
  DISCLOSURES: {
    // from, to, document_type, limit, headers, order
    call: (c, a) => disclosures(c, a[0], a[1], a[2], a[3], a[4], invocation(), a[5]),
    cases: [
      { args: [null, null, null, null, null, null] },
      { args: [null, null, null, 250, 2, "asc"] }, // three pages
      { args: ["2024-01-01", "2025-12-31", null, 10, 1, null] },
      { args: [null, null, "有価証券報告書", 5, 0, null] },
      { args: ["2099-01-01", null, null, null, null, null], refused: true }, // #N/A: future
      { args: ["2025-01-01", "2024-01-01", null, null, null, null], refused: true }, // #VALUE!
      { args: [null, null, null, 1001, null, null], refused: true }, // #VALUE!
    ],
  },
};

/** Codes spread over the sandbox's securities list (4-digit and 130A-style codes, ETFs). */
function companies(count: number): string[] {
  const codes = getDataset().securities.map((s) => s.code);
  const step = Math.max(1, Math.floor(codes.length / count));
  return Array.from({ length: count }, (_, i) => codes[i * step] as string);
}

/** The sandbox's EDINET code of 7203. */
const EDINET_7203 = getDataset().securities.find((s) => s.code === "7203")?.edinet_code as string;

/** Same session options for every path of one run. */
interface Look {
  headerLanguage: HeaderLanguage;
  dataTypes: boolean;
}

async function samePaths(name: string, company: string, look: Look) {
  const { call, cases } = (FUNCTIONS[name] ??
    PERSON_FUNCTIONS[name] ??
    DOCUMENT_FUNCTIONS[name]) as (typeof FUNCTIONS)[string];
  // Full: a cold session, every answer fetched by the cell itself.
  const cold = useSandbox({ now: NOW, ...look });
  const full: unknown[] = [];
  for (const { args } of cases) full.push(await shown(call(company, args)));
  const asked = cold.sent();
  expect(asked).toBeGreaterThan(0);

  // Warm: the same session again (twice: a table built from memory is given again); from memory
  // at once where the answer can be read synchronously, and nothing asked again.
  const kept: unknown[] = [];
  for (let round = 0; round < 2; round += 1) {
    for (const [i, c] of cases.entries()) {
      const again = call(company, c.args);
      if ("value" in (full[i] as object)) {
        expect(await settlesAtOnce(again)).toBe(true);
        // The table itself, not a promise of it: Excel's runtime sets it at once.
        expect(again).not.toBeInstanceOf(Promise);
      }
      const out = await shown(again);
      expect(out).toEqual(full[i]);
      // Built once from the same answers: the second round gives the very same table, or (its
      // rows all numbers: packed-table.ts) the same head rows with its number rows unpacked.
      if (round === 0) kept.push(out);
      else if ("value" in (out as object)) {
        const table = (out as { value: Cell[][] }).value;
        const before = (kept[i] as { value: Cell[][] }).value;
        if (Object.isFrozen(table)) expect(table).toBe(before);
        else table.forEach((row, r) => Object.isFrozen(row) && expect(row).toBe(before[r]));
      }
    }
  }
  expect(cold.sent()).toBe(asked);

  // Every cell at once in a fresh, slow session: cells waiting for one another's fetches give the
  // same tables and ask nothing twice.
  jest.useFakeTimers();
  const slow = useSandbox({ now: NOW, ...look, sandbox: { latencyMs: 200 } });
  const pending = cases.map(({ args }) => shown(call(company, args)));
  await jest.advanceTimersByTimeAsync(200 * (asked + 2));
  expect(await Promise.all(pending)).toEqual(full);
  expect(slow.sent()).toBe(asked);
  jest.useRealTimers();
  return full;
}

/** The person functions: their subject is a person id (no look-up), not a company. */
const PERSON_CASES: readonly Case[] = [
  { args: [null] },
  { args: [2] },
  { args: [0] },
  { args: [3], refused: true }, // #VALUE!
];

const PERSON_FUNCTIONS: Record<string, { call: TableFunction; cases: readonly Case[] }> = {
  PERSON: { call: (id, a) => person(id, a[0], invocation()), cases: PERSON_CASES },
  APPOINTMENTS: { call: (id, a) => appointments(id, a[0], invocation()), cases: PERSON_CASES },
  COMPENSATION: { call: (id, a) => compensation(id, a[0], invocation()), cases: PERSON_CASES },
};

/** The document functions: their subject is a document id. */
const DOCUMENT_FUNCTIONS: Record<string, { call: TableFunction; cases: readonly Case[] }> = {
  DOCUMENT: {
    // part, headers
    call: (id, a) => document(id, a[0], a[1], invocation()),
    cases: [
      { args: [null, null] },
      { args: ["sections", 2] },
      { args: ["xbrl", 1] },
      { args: ["xbrl_facts", 0] },
      { args: ["available_sections", 2] },
      { args: ["pages", null], refused: true }, // #VALUE!
    ],
  },
  SECTION: {
    // section
    call: (id, a) => section(id, a[0], invocation()),
    cases: [
      { args: ["business_overview"] },
      { args: ["risk_factors"] },
      { args: ["dividend_policy"] },
      { args: ["major_shareholders"] },
      { args: ["no_such_section"], refused: true }, // #VALUE!
    ],
  },
};

/** Documents of 7203 (statutory and timely, spread over its list) and one that does not exist. */
function docIds(count: number): string[] {
  const ids = getDataset()
    .disclosures.filter((d) => d.security_code === "7203")
    .map((d) => d.item.doc_id);
  const step = Math.max(1, Math.floor(ids.length / count));
  return [...Array.from({ length: count }, (_, i) => ids[i * step] as string), "S9999999"];
}

/** Person ids spread over the sandbox's people, and one no one has. */
function personIds(count: number): string[] {
  const ids = [...getDataset().persons.keys()];
  const step = Math.max(1, Math.floor(ids.length / count));
  return [...Array.from({ length: count }, (_, i) => ids[i * step] as string), "99999999"];
}

const LOOKS: readonly Look[] = [
  { headerLanguage: "keys", dataTypes: false },
  { headerLanguage: "ja", dataTypes: true },
];

describe.each(Object.keys(FUNCTIONS))("%s", (name) => {
  test.each(companies(6))(
    "company %s: full, warm and waiting paths give the same table or message for every combination",
    async (company) => {
      const full = await samePaths(name, company, LOOKS[0] as Look);
      // The cases are not all errors: a table path is exercised for most companies.
      expect(full.length).toBe(FUNCTIONS[name]?.cases.length);
    },
  );

  test("a company typed by its EDINET code: the same on every path, warm without a look-up", async () => {
    const full = await samePaths(name, EDINET_7203, LOOKS[0] as Look);
    expect(full.some((f) => "value" in (f as object))).toBe(true);
  });

  test("Japanese headers and formatted numbers: the same on every path", async () => {
    const full = await samePaths(name, "7203", LOOKS[1] as Look);
    expect(full.some((f) => "value" in (f as object))).toBe(true);
  });

  test("a company typed as a number, a 5-digit code and an exchange form gives the typed code's table", async () => {
    useSandbox({ now: NOW });
    const { call, cases } = FUNCTIONS[name] as (typeof FUNCTIONS)[string];
    const args = (cases[0] as Case).args;
    const first = await shown(call("7203", args));
    for (const form of [7203, 72030, "XTKS:7203", "7203.T"])
      expect(await shown(call(form, args))).toEqual(first);
  });

  test("a refused cell (an argument or a date in the future) asks nothing, even for a fund", async () => {
    const { call, cases } = FUNCTIONS[name] as (typeof FUNCTIONS)[string];
    const refused = cases.filter((c) => c.refused);
    expect(refused.length).toBeGreaterThan(0);
    for (const company of ["7203", "1306", EDINET_7203]) {
      const h = useSandbox({ now: NOW });
      for (const { args } of refused) {
        const out = (await shown(call(company, args))) as { error?: string };
        expect(out.error).toMatch(/^#(VALUE!|N\/A)$/);
      }
      expect(h.sent()).toBe(0);
    }
  });
});

describe.each(Object.keys(PERSON_FUNCTIONS))("%s", (name) => {
  test.each(personIds(4))(
    "person %s: full, warm and waiting paths give the same table or message",
    async (id) => {
      await samePaths(name, id, LOOKS[0] as Look);
    },
  );

  test("Japanese headers and formatted numbers: the same on every path", async () => {
    await samePaths(name, personIds(1)[0] as string, LOOKS[1] as Look);
  });

  test("a refused person id or headers asks nothing", async () => {
    const { call } = PERSON_FUNCTIONS[name] as (typeof FUNCTIONS)[string];
    const h = useSandbox({ now: NOW });
    for (const [id, headers] of [
      ["abc", null],
      ["12", 3],
    ] as const)
      expect(((await shown(call(id, [headers]))) as { error?: string }).error).toBe("#VALUE!");
    expect(h.sent()).toBe(0);
  });
});

describe.each(Object.keys(DOCUMENT_FUNCTIONS))("%s", (name) => {
  test.each(docIds(4))(
    "document %s: full, warm and waiting paths give the same table or message",
    async (id) => {
      await samePaths(name, id, LOOKS[0] as Look);
    },
  );

  test("Japanese headers and formatted numbers: the same on every path", async () => {
    await samePaths(name, docIds(1)[0] as string, LOOKS[1] as Look);
  });

  test("a refused document id or argument asks nothing", async () => {
    const { call, cases } = DOCUMENT_FUNCTIONS[name] as (typeof FUNCTIONS)[string];
    const h = useSandbox({ now: NOW });
    const valid = (cases[0] as Case).args;
    expect(((await shown(call("not-a-doc", valid))) as { error?: string }).error).toBe("#VALUE!");
    for (const { args } of cases.filter((c) => c.refused))
      expect(((await shown(call(docIds(1)[0], args))) as { error?: string }).error).toBe("#VALUE!");
    expect(h.sent()).toBe(0);
  });
});
