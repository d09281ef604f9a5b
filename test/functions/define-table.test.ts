// defineTable's warm path as users see it: the table built once per answer and arguments, given
// again while the answer is the same; a new look, a stale copy or a refreshed answer builds anew;
// errors from memory reach the Problems list; a value preview never asks.
import { valuation } from "../../functions/valuation";
import { getCellError, resetCellErrors } from "../../src/cell-errors";
import { setClientForTesting } from "../../src/session";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { cellError, invocation, resetSession, settlesAtOnce, useSandbox } from "./harness";

afterAll(resetSession);
afterEach(resetCellErrors);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);
const DAY = 24 * 3_600_000;

const call = (asOf: unknown = null, extra = {}) =>
  valuation("7203", "per,roe", 5, 2, invocation(extra), null, asOf);

test("a warm recalculation gives the very table built before, at once and with no request", async () => {
  const h = useSandbox({ now: NOW });
  const first = await call();
  const asked = h.sent();
  const again = call();
  expect(await settlesAtOnce(again)).toBe(true);
  expect(await again).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  expect(h.sent()).toBe(asked);
});

test("switching the header language gives that language's table, not the one kept", async () => {
  const h = useSandbox({ now: NOW });
  const keys = (await call()) as unknown[][];
  setClientForTesting(h.client, { headerLanguage: "ja" }, h.store);
  const ja = (await call()) as unknown[][];
  expect(ja[1]).not.toEqual(keys[1]);
  expect(ja.slice(2)).toEqual(keys.slice(2));
  setClientForTesting(h.client, { headerLanguage: "keys" }, h.store);
  expect(await call()).toEqual(keys);
  expect(h.sent()).toBe(1);
});

test("a stale copy is shown marked stale and not kept: the answer refreshed builds the table anew", async () => {
  const h = useSandbox({ now: NOW });
  const fresh = (await call()) as unknown[][];
  h.advance(8 * DAY); // past the weekly revalidation slot (src/client/freshness.ts)
  h.setDown(true);
  const stale = (await call()) as unknown[][];
  expect(String(stale[0]?.[1])).toContain("stale");
  expect(stale.slice(2)).toEqual(fresh.slice(2));
  h.setDown(false);
  const asked = h.sent();
  const back = (await call()) as unknown[][];
  expect(String(back[0]?.[1])).not.toContain("stale");
  expect(h.sent()).toBe(asked + 1);
  // Fresh again: from memory at once, the same table each time.
  const warm = call();
  expect(await settlesAtOnce(warm)).toBe(true);
  expect(await warm).toBe(back);
});

test("an error found from memory is reported at once and recorded; a table shown clears it", async () => {
  const h = useSandbox({ now: NOW });
  await call();
  const address = "Sheet1!B2";
  const failing = call("FY-80", { address });
  expect(await settlesAtOnce(failing)).toBe(true);
  expect((await cellError(failing)).code).toBe("#N/A");
  expect(getCellError(address)?.code).toBe("#N/A");
  await call(null, { address });
  expect(getCellError(address)).toBeUndefined();
  expect(h.sent()).toBe(1);
});

test("a value preview answers a warm table and asks nothing for a cold one", async () => {
  const h = useSandbox({ now: NOW });
  const preview = { isInValuePreview: true };
  expect((await cellError(call(null, preview))).code).toBe("#N/A");
  expect(h.sent()).toBe(0);
  const table = await call();
  expect(await call(null, preview)).toBe(table);
  expect(h.sent()).toBe(1);
});

test("fields as an array constant (a new array on every call, as Excel passes it) still give the kept table at once", async () => {
  const h = useSandbox({ now: NOW });
  const withArray = () => valuation("7203", [["per", "roe"]], 5, 2, invocation(), null, null);
  const first = await withArray();
  const asked = h.sent();
  const again = withArray();
  expect(await settlesAtOnce(again)).toBe(true);
  expect(await again).toBe(first);
  // Another list is another table; the text "per,roe" reads the same fields.
  expect(await valuation("7203", [["per"]], 5, 2, invocation(), null, null)).not.toEqual(first);
  expect(await valuation("7203", "per,roe", 5, 2, invocation(), null, null)).toEqual(first);
  expect(h.sent()).toBe(asked);
});
