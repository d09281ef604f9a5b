// A company given as a one-cell array ([["7203"]], what a 1×1 array constant or range passes) gives
// what the code itself gives, with the same requests, and settles: its arguments are not interned,
// so each compute built new query objects, and the full path's rounds fetched the same answer from
// memory without end (a loop of settled promises: the runtime's timers never ran again).
import * as KAISHA from "../../functions/index";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { settleWithin } from "../reliability/support/settle";
import { invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

type CustomFunction = (...args: unknown[]) => unknown;

/** Functions whose first argument is a company or a security, and the rest of a valid call. */
const CALLS: readonly [string, readonly unknown[]][] = [
  ["FINANCIALS", []],
  ["FINANCIALS", [null, "quarterly", 3, "2024/03"]],
  ["FINANCIAL", ["sales"]],
  ["FINANCIAL", ["net_income", "FY-2", null, null, "million_jpy"]],
  ["FINANCIAL", ["sales", "LTM"]], // several rounds: the quarters then the halves
  ["FINANCIAL", ["operating_cf", "LTM"]],
  ["FINANCIAL", ["sales", "2023年度"]], // the widest series, then the window
  ["COMPANY", []],
  ["SEGMENTS", []],
  ["DIVIDENDS", []],
  ["VALUATION", []],
  ["PRICES", ["2024-01-04", "2024-02-01"]],
  ["PRICES", []],
  ["PRICE", []],
  ["PRICE", ["close", "2024-03-01"]],
  ["PEERS", []],
  ["DISCLOSURES", []],
  ["OFFICERS", []],
  ["MARGIN", []],
  ["JSFMARGIN", []],
];

/** Calls like Excel: positional arguments (null where omitted), then the invocation. */
async function call(name: string, args: readonly unknown[]) {
  const fn = (KAISHA as unknown as Record<string, CustomFunction>)[name] as CustomFunction;
  const positional = Array.from({ length: Math.max(0, fn.length - 1) }, (_, i) => args[i] ?? null);
  const h = useSandbox({ now: NOW });
  const run = (async () => fn(...positional, invocation()))();
  // A real-time bound the timers can enforce only if the call yields to them.
  const outcome = await settleWithin(run, 20_000);
  const shown =
    outcome.state === "fulfilled"
      ? { value: outcome.value }
      : outcome.state === "rejected"
        ? { error: String((outcome.error as { code?: string }).code) }
        : { pending: true };
  return { shown, requests: h.requests() };
}

test.each(CALLS)("%s(company as [[...]], %j) = the same call with the code", async (name, rest) => {
  const plain = await call(name, ["7203", ...rest]);
  expect(plain.shown).toHaveProperty("value");
  for (const company of [[["7203"]], [[7203]], 7203]) {
    const other = await call(name, [company, ...rest]);
    expect(other.shown).toEqual(plain.shown);
    expect(other.requests).toEqual(plain.requests);
  }
});
