// Property tests: FINANCIAL's cell equals the independent oracle's figure for every sandbox company, period form and date.
import fc from "fast-check";
import { financial } from "../../functions/financial-cell";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { cellError, invocation, resetSession, useSandbox } from "../functions/harness";
import { daySerial, expectedFinancial, type RawAnswers } from "./period-oracle";
import { companiesWithFinancials, rawAnswers } from "./raw-answers";

jest.setTimeout(120_000);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);
const TODAY = SANDBOX_DEFAULT_NOW.slice(0, 10);
const ITEMS = ["sales", "net_income", "total_assets", "operating_cf"];
/** Companies the rules are hardest on: year-end changes (Dec -> Mar, Sep -> Mar), an alphanumeric code, December and March years. */
const MUST = ["2002", "3101", "130A", "7203", "5201", "2975"];

let companies: string[] = [];
const answers = new Map<string, RawAnswers>();

beforeAll(async () => {
  useSandbox({ now: NOW });
  companies = await companiesWithFinancials();
  for (const code of MUST) expect(companies).toContain(code);
});

/** A company's raw answers, read once when a property first draws it. */
async function answersOf(code: string): Promise<RawAnswers> {
  let raw = answers.get(code);
  if (raw === undefined) {
    raw = await rawAnswers(code);
    answers.set(code, raw);
  }
  return raw;
}
afterAll(resetSession);

type Type = "annual" | "quarterly" | "semiannual" | "LTM";

/** The cell as the user sees it: a number, "" for an empty cell, or the error's code and message. */
async function cell(
  code: string,
  item: string,
  arg: string | number | null,
  type: Type | null,
): Promise<unknown> {
  try {
    return await financial(code, item, arg, type, null, null, invocation());
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { error: e.code, message: e.message };
  }
}

/**
 * Where the cell and the oracle disagree: undefined when they agree, else the call, what the oracle
 * expected and what the cell gave. An error must be the oracle's kind (#VALUE! for a refused
 * argument, #N/A otherwise; a future date says so); a value must be the oracle's number (Object.is,
 * as toEqual compares a number: 0 is not -0) or "" where it has none.
 */
async function disagreement(
  code: string,
  item: string,
  arg: string | number | null,
  type: Type | null,
): Promise<{ context: string; got: unknown } | undefined> {
  const expected = expectedFinancial(await answersOf(code), item, arg, type, TODAY);
  const got = await cell(code, item, arg, type);
  let ok: boolean;
  if ("error" in expected) {
    const code_ = expected.error === "refused" ? "#VALUE!" : "#N/A";
    const e = got as { error?: unknown; message?: unknown } | null;
    ok =
      typeof e === "object" &&
      e !== null &&
      e.error === code_ &&
      (expected.error !== "future" ||
        (typeof e.message === "string" && /in the future/.test(e.message)));
  } else {
    ok = Object.is(got, expected.value ?? "");
  }
  if (ok) return undefined;
  const context = `FINANCIAL(${code},${item},${JSON.stringify(arg)},${type}) expected ${JSON.stringify(expected)}`;
  return { context, got };
}

async function agrees(
  code: string,
  item: string,
  arg: string | number | null,
  type: Type | null,
): Promise<void> {
  expect(await disagreement(code, item, arg, type)).toBeUndefined();
}

const company = (): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom(...MUST), fc.constantFrom(...(companies.length ? companies : MUST)));
const item = fc.constantFrom(...ITEMS);
const anyType = fc.constantFrom<Type>("annual", "quarterly", "semiannual", "LTM");

describe("FINANCIAL agrees with the oracle over the whole sandbox", () => {
  test("relative tokens: FY, FQ, FH and LTM offsets, and 0 / -n with each period type", async () => {
    const token = fc.oneof(
      fc
        .tuple(fc.constantFrom("FY", "FQ", "FH", "LTM"), fc.integer({ min: 0, max: 9 }))
        .map(([u, n]) => ({
          arg: n === 0 ? (u === "LTM" ? "LTM" : `${u}0`) : `${u}-${n}`,
          type: null,
        })),
      fc
        .tuple(fc.integer({ min: -9, max: 0 }), fc.option(anyType, { nil: null }))
        .map(([n, type]) => ({ arg: n, type })),
    );
    await fc.assert(
      fc.asyncProperty(company(), item, token, async (c, i, t) => agrees(c, i, t.arg, t.type)),
      { numRuns: 150 },
    );
  });

  test("named periods: 2024Q2, 2024H1, 2024H2, 2024年3月期, 2024年度, 令和6年度, 令和元年度, FY2024, 202403, 2024", async () => {
    const year = fc.integer({ min: 2012, max: 2027 });
    const named = fc.oneof(
      fc
        .tuple(year, fc.constantFrom("Q1", "Q2", "Q3", "Q4", "H1", "H2"))
        .map(([y, q]) => ({ arg: `${y}${q}` as string | number, type: null as Type | null })),
      fc
        .tuple(year, fc.constantFrom(3, 6, 9, 11, 12), fc.option(anyType, { nil: null }))
        .map(([y, m, type]) => ({ arg: `${y}年${m}月期`, type })),
      fc
        .tuple(year, fc.constantFrom(3, 12), fc.option(anyType, { nil: null }))
        .map(([y, m, type]) => ({ arg: y * 100 + m, type })),
      fc
        .tuple(year, fc.option(anyType, { nil: null }))
        .map(([y, type]) => ({ arg: `${y}年度`, type })),
      fc
        .tuple(fc.integer({ min: 1, max: 8 }), fc.option(anyType, { nil: null }))
        .map(([n, type]) => ({ arg: n === 1 ? "令和元年度" : `令和${n}年度`, type })),
      fc
        .tuple(year, fc.boolean(), fc.option(anyType, { nil: null }))
        .map(([y, fy, type]) => ({ arg: fy ? `FY${y}` : y, type })),
    );
    await fc.assert(
      fc.asyncProperty(company(), item, named, async (c, i, t) => agrees(c, i, t.arg, t.type)),
      { numRuns: 200 },
    );
  });

  test("dates: on a period end, the day after, the day before, mid-month and in the future, for each period type", async () => {
    const monthEnd = fc
      .tuple(fc.integer({ min: 2012, max: 2026 }), fc.integer({ min: 1, max: 12 }))
      .map(([y, m]) => new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10));
    const shift = (day: string, days: number): string =>
      new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const date = fc.oneof(
      fc.tuple(monthEnd, fc.constantFrom(0, 1, -1, -15)).map(([d, s]) => shift(d, s)),
      fc.integer({ min: 1, max: 3_000 }).map((days) => shift(TODAY, days)),
      fc.constant(TODAY),
    );
    await fc.assert(
      fc.asyncProperty(
        company(),
        item,
        date,
        anyType,
        fc.boolean(),
        async (c, i, d, type, asText) => agrees(c, i, asText ? d : daySerial(d), type),
      ),
      { numRuns: 200 },
    );
  });
});

describe("the oracle's own anchors", () => {
  test("the oracle reads 2002's transitional quarter as ending at its new March year end", async () => {
    const raw = await answersOf("2002");
    // DATE(2015,4,15), quarterly: the quarter ended 2015-03-31 is 2015/03 Q1 (January-March 2015).
    expect(expectedFinancial(raw, "sales", "2015-04-15", "quarterly", TODAY)).toMatchObject({
      label: "2015/03 Q1",
    });
  });

  test("a future date is an error for the oracle and for the cell alike", async () => {
    const err = await cellError(
      financial("7203", "sales", "2030-01-01", null, null, null, invocation()),
    );
    expect(err.code).toBe("#N/A");
    expect(expectedFinancial(await answersOf("7203"), "sales", "2030-01-01", null, TODAY)).toEqual({
      error: "future",
    });
  });

  test("2975's first quarterly year: LTM at its Q2 is H1 + the previous year's second half", async () => {
    // 2975 (November year end) discloses quarters from 2017/11 on, halves from 2014/11: the four
    // quarters ending 2017-05-31 do not exist, the same twelve months do from halves.
    const raw = await answersOf("2975");
    const half = (fy: string, q: string): number =>
      raw.semiannual.find((r) => r.fiscal_year === fy && r.quarter === q)?.["sales"] as number;
    const value = half("2017/11", "H1") + half("2016/11", "full_year") - half("2016/11", "H1");
    for (const day of ["2017-05-31", "2017-07-31"]) {
      expect(expectedFinancial(raw, "sales", day, "LTM", TODAY)).toEqual({
        value,
        label: "LTM 2017/11 Q2",
      });
      await agrees("2975", "sales", daySerial(day), "LTM");
    }
    // At its Q3 neither the quarters nor the halves give twelve months.
    expect(expectedFinancial(raw, "sales", "2017-08-31", "LTM", TODAY)).toEqual({ error: "none" });
    await agrees("2975", "sales", "2017-08-31", "LTM");
  });
});

describe("every period type x date at every month end, for the companies the rules are hardest on", () => {
  test.each(MUST)("%s", async (code) => {
    // Not drawn at random: every month end from 2012 to today, as a serial and as text, for each
    // period type, a flow and a stock.
    // The disagreements asserted at once (one jest expect per case cost more than the case).
    const types: (Type | null)[] = [null, "annual", "quarterly", "semiannual", "LTM"];
    const wrong: unknown[] = [];
    let cases = 0;
    for (let y = 2012; y <= 2026; y++)
      for (let m = 1; m <= 12; m++) {
        const day = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
        if (day > TODAY) continue;
        for (const type of types)
          for (const i of ["sales", "total_assets", "operating_cf"]) {
            const d = await disagreement(code, i, (y + m) % 2 === 0 ? day : daySerial(day), type);
            if (d !== undefined) wrong.push(d);
            cases += 1;
          }
      }
    expect(wrong).toEqual([]);
    expect(cases).toBeGreaterThan(2_000);
  });
});
