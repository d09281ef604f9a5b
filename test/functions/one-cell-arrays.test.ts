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

describe("documents and people given as one-cell arrays", () => {
  let docId = "";
  let personId = "";
  let element = "";
  let section = "";
  beforeAll(async () => {
    const h = useSandbox({ now: NOW });
    const list = await h.client.securityDisclosures({ code: "7203", limit: 50 });
    const annual = list.disclosures.find((d) => d.document_type?.startsWith("有価証券報告書"));
    docId = annual?.doc_id ?? "";
    const grid = async (name: string, args: unknown[]) =>
      ((await call(name, args)).shown as { value?: unknown[][] }).value ?? [];
    const facts = await grid("DOCUMENT", [docId, "xbrl", 0]);
    element = String(
      facts.find((f) => f[1] === "CurrentYearDuration" && typeof f[4] === "number")?.[0] ?? "",
    );
    const sections = await grid("DOCUMENT", [docId, "available_sections", 0]);
    section = String(sections[1]?.[0] ?? sections[0]?.[0] ?? "");
    const officers = await grid("OFFICERS", ["7203"]);
    personId = String(officers[1]?.[0] ?? "");
  });

  test.each([
    ["DOCUMENT", []],
    ["DOCUMENT", ["xbrl"]],
    ["XBRL", ["element"]],
    ["SECTION", ["section"]],
  ] as const)("%s([[doc_id]], %j) = the same call with the id", async (name, given) => {
    expect([docId, element, section]).not.toContain("");
    const rest = given.map((g) => (g === "element" ? element : g === "section" ? section : g));
    const plain = await call(name, [docId, ...rest]);
    expect(plain.shown).toHaveProperty("value");
    const other = await call(name, [[[docId]], ...rest]);
    expect(other).toEqual(plain);
  });

  test.each(["PERSON", "APPOINTMENTS", "COMPENSATION"])(
    "%s([[person_id]]) = the same call with the id",
    async (name) => {
      expect(personId).not.toBe("");
      const plain = await call(name, [personId]);
      expect(plain.shown).toHaveProperty("value");
      for (const person of [[[personId]], [[Number(personId)]]]) {
        expect(await call(name, [person])).toEqual(plain);
      }
    },
  );
});

test("a one-cell array holding what no cell holds (a bigint) is refused, even after the same digits as a number", async () => {
  const plain = await call("COMPENSATION", [[[7203]]]);
  expect(plain.shown).toEqual({ error: "#N/A" }); // a valid id the sandbox does not know
  const h = useSandbox({ now: NOW });
  const fn = KAISHA.COMPENSATION as unknown as CustomFunction;
  await Promise.resolve(fn([[7203]], null, invocation())).catch(() => undefined);
  const sent = h.sent();
  const outcome = await settleWithin(
    (async () => fn([[BigInt(7203)]], null, invocation()))(),
    20_000,
  );
  expect(outcome.state).toBe("rejected");
  expect((outcome as { error: { code: string } }).error.code).toBe("#VALUE!");
  expect(h.sent()).toBe(sent);
});
