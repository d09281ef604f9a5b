// A FINANCIAL cell gives the same value (or the same error message) on each of its three paths:
// full (a cold session), warm (the same session again, from memory) and join (waiting for another
// cell's fetch), for many companies and argument combinations.
import { financial } from "../../functions/financial-cell";
import { getDataset } from "../../sandbox/data";
import { ETFS } from "../../sandbox/data/companies";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { invocation, resetSession, settlesAtOnce, shown, useSandbox } from "./harness";
import { SHIFT_YEARS, useLongHistory } from "./long-history";

jest.setTimeout(180_000);
afterAll(resetSession);
afterEach(() => jest.useRealTimers());

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

/** FINANCIAL's arguments after the company: item, fiscal_period, period, quarter, unit. */
type Args = readonly [unknown, unknown, unknown, unknown, unknown];

const CASES: readonly Args[] = [
  ["sales", null, null, null, null],
  ["net_income", "FY-3", null, null, "million_jpy"],
  ["total_assets", -1, null, null, "thousand_jpy"],
  ["eps", "2024/03", null, null, null],
  ["roe", "FY0", null, null, null],
  ["sales", "FQ-2", null, null, null],
  ["operating_profit", "2024Q2", null, null, null],
  ["sales", "FH0", null, null, null],
  ["sales", "FH-1", null, null, null],
  ["operating_profit", "2024H2", null, null, null],
  ["sales", 2024, "semiannual", "H2", null],
  ["roe", "2024H2", null, null, null], // #N/A: a ratio has no second half
  ["sales", "LTM", null, null, "hundred_million_jpy"],
  ["net_income", "LTM-1", null, null, null],
  ["operating_cf", "LTM", null, null, null], // half-yearly item: the semiannual halves
  ["operating_cf", "2024Q2", "LTM", null, null],
  ["operating_cf", "2024Q3", "LTM", null, null], // #N/A: half-yearly items end at Q2 or Q4
  ["total_assets", "LTM", null, null, null],
  ["sales", "2023-09-30", "quarterly", null, null],
  ["sales", "2024-10-15", null, null, null],
  ["sales", "2099-01-01", null, null, null], // #N/A: a date in the future, no request
  ["sales", "令和6年3月期", null, null, null],
  ["sales", "2023年度", null, null, null],
  ["sales", 1995, null, null, null], // an older window (or the start of the history)
  ["sales", "1985/03", null, null, null], // further back still
  ["sales", -35, null, null, null],
  ["sales", "FY-60", null, null, null], // #N/A: before the history
  ["no_such_item", null, null, null, null], // #VALUE!
  ["sales", "FQ-1", "annual", null, null], // #VALUE!: the token names a quarter
  ["dividends_paid_cf", "LTM", null, "H1", null], // #VALUE!: LTM ends at a quarter
];

const FUNDS = new Set(ETFS.map((e) => e.code));

/** Company codes spread over the sandbox's securities list (an ETF among them: no statements). */
function companies(count: number): string[] {
  const codes = getDataset()
    .securities.map((s) => s.code)
    .filter((code) => /^\d{4}$/.test(code));
  const step = Math.max(1, Math.floor(codes.length / count));
  return Array.from({ length: count }, (_, i) => codes[i * step] as string);
}

const cell = (company: string, args: Args) => financial(company, ...args, invocation());

/** A fresh session; `sent()` counts the requests that reached the API. */
type Session = (latencyMs: number) => { sent(): number };

const sandboxSession: Session = (latencyMs) =>
  useSandbox({ now: NOW, ...(latencyMs > 0 ? { sandbox: { latencyMs } } : {}) });

/**
 * The cell's full path (a cold session), warm path (the same session again) and join path (a
 * fresh session, every cell asked at once) for each of `cases`: the same values and messages.
 */
async function samePaths(company: string, cases: readonly Args[], session: Session) {
  const fund = FUNDS.has(company);
  // Full: a cold session, every answer fetched by the cell itself.
  const cold = session(0);
  const full: unknown[] = [];
  for (const args of cases) full.push(await shown(cell(company, args)));
  const asked = cold.sent();
  expect(asked).toBeGreaterThan(0);
  expect(full.some((f) => "value" in (f as object))).toBe(!fund);

  // Warm: the same session again; every value from memory at once, no request.
  for (const [i, args] of cases.entries()) {
    const again = cell(company, args);
    if ("value" in (full[i] as object)) expect(await settlesAtOnce(again)).toBe(true);
    expect(await shown(again)).toEqual(full[i]);
  }
  // An ETF's 404 is remembered too (src/client/not-found.ts): nothing asked again.
  expect(cold.sent()).toBe(asked);

  // Join: a fresh session where every cell is asked at once while the first fetches wait.
  jest.useFakeTimers();
  const slow = session(200);
  const pending = cases.map((args) => shown(cell(company, args)));
  await jest.advanceTimersByTimeAsync(200 * (asked + 2));
  expect(await Promise.all(pending)).toEqual(full);
  // Cells waiting for one another's fetches ask nothing twice.
  expect(slow.sent()).toBe(asked);
  jest.useRealTimers();
  return full;
}

describe.each(companies(12))("company %s", (company) => {
  test("full, warm and join paths give the same value or message for every combination", async () => {
    await samePaths(company, CASES, sandboxSession);
  });
});

/** Periods older than the 30-year window: FINANCIAL steps back one window at a time. */
const OLDER: readonly Args[] = [
  ["sales", 1995, null, null, null],
  ["sales", "1985/03", null, null, null],
  ["net_income", "1980/03", null, null, "million_jpy"],
  ["sales", -35, null, null, null], // #N/A: a relative period counts within the latest window
  ["sales", "1990Q2", null, null, null],
  ["sales", "1990H2", null, null, null],
  ["net_income", "1990Q3", "LTM", null, null],
  ["operating_cf", "1990Q2", "LTM", null, null], // an older window and the semiannual halves
  ["sales", "1990-06-30", "quarterly", null, null],
  ["sales", "FY-80", null, null, null], // #N/A: before the 70-year history
  ["sales", 1930, null, null, null], // #N/A: past the windows FINANCIAL steps back through
];

describe.each(["7203", "6758", "7974", "8306"])("company %s with a 70-year history", (company) => {
  test("older windows: full, warm and join paths give the same value or message", async () => {
    const full = await samePaths(company, OLDER, (latency) => useLongHistory(NOW, latency));
    // The older years were answered (not refused as outside the window).
    const answered = full.map((f) => "value" in (f as object));
    expect(answered).toEqual([true, true, true, false, true, true, true, true, true, false, false]);
  });
});

test("an older window's figures are its own years': 1985/03 and an LTM from older halves", async () => {
  useLongHistory(NOW);
  const span = SHIFT_YEARS;
  // The synthetic history repeats the sandbox's years SHIFT_YEARS further back, so a year that
  // much later holds the same figures.
  const same = async (args: Args, later: Args) =>
    expect(await cell("6758", args)).toBe(await cell("6758", later));
  await same(
    ["sales", "1985/03", null, null, null],
    ["sales", `${1985 + span}/03`, null, null, null],
  );
  await same(
    ["operating_cf", "1990Q2", "LTM", null, null],
    ["operating_cf", `${1990 + span}Q2`, "LTM", null, null],
  );
});

test("a company typed four ways (number, text, 5-digit code, exchange prefix) gives one value on every path", async () => {
  useSandbox({ now: NOW });
  const forms: unknown[] = [7203, "7203", 72030, "XTKS:7203"];
  const full = await financial(forms[0], "sales", "FY-1", null, null, null, invocation());
  for (const form of forms) {
    const call = financial(form, "sales", "FY-1", null, null, null, invocation());
    expect(await settlesAtOnce(call)).toBe(true);
    expect(await call).toBe(full);
  }
});
