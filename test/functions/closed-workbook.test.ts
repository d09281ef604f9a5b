// A closed workbook's runtime is garbage: nothing functions/ keeps at module level (argument tables,
// per-answer indexes, remembered errors, shared fetches) holds its client, memory tier or answers.
// An #N/A remembered by an answer's index was made in the full path, and its captured stack keeps
// that call's context (and so the client) alive: harmless while the index lives only as long as its
// answer, a leak once anything module-level holds an index (a "last answer" cache did: 223 MB at
// Model 500, bench "warm 3 ... retained").
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { financial } from "../../functions/financial-cell";
import { invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Cells through every path (warm, joined, full; values, LTM, #N/A remembered per answer). */
async function workbook(): Promise<{ client: WeakRef<object>; store: WeakRef<object> }> {
  const h = useSandbox();
  const cells = (): Promise<unknown>[] =>
    [
      financial("7203", "sales", 0, null, null, null, invocation()),
      financial("7203", "operating_profit", -1, null, null, null, invocation()),
      financial("7203", "sales", 0, "LTM", null, null, invocation()),
      financial("7203", "sales", 0, "quarterly", "Q2", null, invocation()),
      // No such period, and the only cell of its company: computed first through the full path
      // (`run`, whose call context holds the client), its #N/A then remembered by the answer's
      // index. The last cell, so whatever remembers "the last answer" holds this one.
      financial("6758", "net_income", 1901, null, null, null, invocation()),
    ].map((value) => Promise.resolve(value).catch((error: unknown) => error));
  await Promise.all(cells()); // cold: fetched, most cells joining another's fetch
  await Promise.all(cells()); // warm: from memory
  expect(h.sent()).toBeGreaterThan(0);
  return { client: new WeakRef(h.client), store: new WeakRef(h.store) };
}

test("after the workbook closes, its client and memory tier are collected", async () => {
  const refs = await workbook();
  // The workbook closes: the session lets go of the runtime (a reopened one starts anew).
  resetSession();
  // Settled shared fetches stay findable for one more turn.
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  expect(refs.store.deref()).toBeUndefined();
  expect(refs.client.deref()).toBeUndefined();
});
