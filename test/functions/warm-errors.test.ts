// A FINANCIAL cell whose answer in memory says #N/A (or whose arguments are refused) is answered
// at once when recalculated, with the very message its first call gave, and stays in the Problems
// list; an EDINET code asked by its learned security code still names the code the user typed.
import { financial } from "../../functions/financial-cell";
import { getCellError, resetCellErrors } from "../../src/cell-errors";
import { setClientForTesting } from "../../src/session";
import { getDataset } from "../../sandbox/data";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { cellError, invocation, resetSession, settlesAtOnce, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);
beforeEach(resetCellErrors);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);
const EDINET_7203 = getDataset().securities.find((s) => s.code === "7203")?.edinet_code as string;

type Args = readonly [unknown, unknown, unknown, unknown, unknown];

const ERRORS: readonly Args[] = [
  ["roe", "2024H2", null, null, null], // #N/A: a ratio has no second half
  ["sales", "2099-01-01", null, null, null], // #N/A: a date in the future
  ["sales", "FY-60", null, null, null], // #N/A: before the history
  ["no_such_item", null, null, null, null], // #VALUE!
  ["sales", "FQ-1", "annual", null, null], // #VALUE!: the token names a quarter
];

test.each(ERRORS)(
  "FINANCIAL(7203, %s, %s, %s, %s, %s) recalculated: the same error at once, recorded, nothing asked",
  async (...args) => {
    const h = useSandbox({ now: NOW });
    const address = "Sheet1!B2";
    const first = await cellError(financial("7203", ...args, invocation({ address })));
    const asked = h.sent();
    resetCellErrors();
    const again = financial("7203", ...args, invocation({ address }));
    expect(await settlesAtOnce(again)).toBe(true);
    expect(await cellError(again)).toEqual(first);
    expect(getCellError(address)?.message).toBe(first.message);
    expect(h.sent()).toBe(asked);
  },
);

test("a #N/A from memory is one cell error for every recalculation, and its own in the other language", async () => {
  const h = useSandbox({ now: NOW });
  const args: Args = ["sales", "FY-60", null, null, null];
  const rejection = async (): Promise<unknown> => {
    try {
      await financial("7203", ...args, invocation());
    } catch (err) {
      return err;
    }
    throw new Error("expected #N/A");
  };
  await rejection();
  const warm = await rejection();
  expect(await rejection()).toBe(warm);
  setClientForTesting(h.client, { lang: "ja" }, h.store);
  const ja = (await rejection()) as { code: string; message: string };
  expect(ja).not.toBe(warm);
  expect(ja.code).toBe("#N/A");
  expect(ja.message).not.toBe((warm as { message: string }).message);
  expect(await rejection()).toBe(ja);
  expect(h.sent()).toBe(1);
});

test("an EDINET code's #N/A names the EDINET code when recalculated, as its first call did", async () => {
  const h = useSandbox({ now: NOW });
  const args: Args = ["sales", "FY-60", null, null, null];
  // 7203 first: the client learns the pair, and the EDINET code is then asked by 7203.
  await cellError(financial("7203", ...args, invocation()));
  const first = await cellError(financial(EDINET_7203, ...args, invocation()));
  const asked = h.sent();
  expect(first.message).toContain(EDINET_7203);
  const again = await cellError(financial(EDINET_7203, ...args, invocation()));
  expect(again).toEqual(first);
  expect(h.sent()).toBe(asked);
});

test.each([[-100], [-101]])(
  "an LTM cell with no four quarters there (%s) keeps its LTM #N/A word for word when recalculated",
  async (fiscalPeriod) => {
    const h = useSandbox({ now: NOW });
    const args: Args = ["sales", fiscalPeriod, "LTM", null, null];
    const first = await cellError(financial("7203", ...args, invocation()));
    expect(first.message).toMatch(/^LTM sales/);
    expect(first.message).toContain(`(${fiscalPeriod})`);
    const asked = h.sent();
    for (let i = 0; i < 2; i += 1) {
      const again = financial("7203", ...args, invocation());
      expect(await settlesAtOnce(again)).toBe(true);
      expect(await cellError(again)).toEqual(first);
    }
    expect(h.sent()).toBe(asked);
  },
);

test("a value preview's error is not recorded for the cell", async () => {
  useSandbox({ now: NOW });
  const address = "Sheet1!C3";
  const args: Args = ["roe", "2024H2", null, null, null];
  await cellError(financial("7203", ...args, invocation()));
  const preview = invocation({ address, isInValuePreview: true });
  expect((await cellError(financial("7203", ...args, preview))).code).toBe("#N/A");
  expect(getCellError(address)).toBeUndefined();
});
