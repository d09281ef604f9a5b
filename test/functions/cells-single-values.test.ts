// PRICE and XBRL, defined with defineCell: a cell asked again gives what the full path gave (value
// or message), from memory at once where the answer is there, and asks nothing more.
import * as TYPED from "../../functions/index";
import { getDataset } from "../../sandbox/data";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { invocation, resetSession, settlesAtOnce, shown, useSandbox } from "./harness";

const KAISHA = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

jest.setTimeout(60_000);
afterAll(resetSession);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);
const inv = () => invocation() as CustomFunctions.CancelableInvocation;

/**
 * Each call cold, then again: the same shown result, no request the second time, and answered at
 * once where `warm(i, shown)` says memory holds it.
 */
async function sameTwice(
  calls: readonly (() => Promise<unknown>)[],
  warm: (i: number, shown: object) => boolean,
) {
  const h = useSandbox({ now: NOW });
  const first: unknown[] = [];
  for (const call of calls) first.push(await shown(call()));
  const asked = h.sent();
  for (const [i, call] of calls.entries()) {
    const again = call();
    expect(await settlesAtOnce(again)).toBe(warm(i, first[i] as object));
    expect(await shown(again)).toEqual(first[i]);
  }
  expect(h.sent()).toBe(asked);
  return first;
}

/** 7203's EDINET code in the sandbox (a company asked by EDINET code is looked up first). */
const EDINET_7203 = getDataset().securities.find((s) => s.code === "7203")?.edinet_code as string;

describe.each(["7203", "6758", "8306", EDINET_7203])("PRICE of %s", (company) => {
  test("cold and again give the same value or message; the latest day and a refused argument are answered at once", async () => {
    const cases: [unknown, unknown][] = [
      [null, null],
      ["open", null],
      ["volume", null],
      ["date", null],
      ["close", "2024-06-28"],
      ["close", "2024-06-29"], // a Saturday: Friday's close
      ["adj_close", "2010-01-04"],
      ["close", "2004-12-31"], // #N/A: before the price history
      ["close", "2099-01-01"], // #N/A: a date in the future
      ["no_such_field", null], // #VALUE!
      ["close,open", null], // #VALUE!: one field
    ];
    // From memory at once: a value of the latest day of a code (an EDINET code is looked up
    // through the full path, as a name is; a day's window is the client's). A refused argument
    // needs no answer: its #VALUE! comes at once for any company.
    const code = !company.startsWith("E");
    const refused = (i: number) =>
      cases[i]?.[0] === "no_such_field" || cases[i]?.[0] === "close,open";
    const first = await sameTwice(
      cases.map(
        ([field, date]) =>
          () =>
            KAISHA.PRICE(company, field, date, inv()),
      ),
      (i, result) => refused(i) || (code && cases[i]?.[1] === null && "value" in result),
    );
    expect(first.filter((f) => "value" in (f as object))).toHaveLength(7);
  });
});

test("XBRL: cold and again give the same fact or message, from the document in memory at once", async () => {
  useSandbox({ now: NOW });
  const reports = (await KAISHA.DISCLOSURES(
    "7203",
    null,
    null,
    "有価証券報告書",
    1,
    0,
    null,
    inv(),
  )) as unknown[][];
  const id = String(reports[0]?.[5]);
  const facts = (await KAISHA.DOCUMENT(id, "xbrl", 0, inv())) as unknown[][];
  const names = [...new Set(facts.map((f) => String(f[0])))].slice(0, 6);
  expect(names.length).toBeGreaterThan(2);
  const calls: (() => Promise<unknown>)[] = [];
  for (const name of names) {
    calls.push(() => KAISHA.XBRL(id, name, null, inv()));
    calls.push(() => KAISHA.XBRL(id, name.split(":")[1] ?? name, "Prior1YearDuration", inv()));
  }
  calls.push(() => KAISHA.XBRL(id, "NoSuchElement", null, inv())); // #N/A
  const first = await sameTwice(calls, (_i, result) => "value" in result);
  expect(first.some((f) => "value" in (f as object))).toBe(true);
});
