// PRICE with a date reads shared calendar-year windows: a column of 250 trading days costs at most
// two requests, nothing after a PRICES spill of the same days, and a weekend gives the close before it.
import * as TYPED from "../../functions/index";
import { isoToSerial, serialToIso } from "../../src/excel/dates";
import { freezeAnswer } from "../../src/client";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { cellError, invocation, resetSession, settlesAtOnce, useSandbox } from "./harness";

// The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions).
const KAISHA = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

jest.setTimeout(60_000);
afterAll(resetSession);

type Grid = unknown[][];
const inv = (): CustomFunctions.CancelableInvocation =>
  invocation() as CustomFunctions.CancelableInvocation;

/** The 250 trading days ending 2024-06-28 with their closes, asked of a separate sandbox. */
async function tradingDays(): Promise<{ date: string; close: number }[]> {
  useSandbox();
  const grid = (await KAISHA.PRICES(
    "7203",
    "2023-01-01",
    "2024-06-28",
    [["close"]],
    "asc",
    0,
    inv(),
  )) as Grid;
  return grid.slice(-250).map((row) => ({
    date: serialToIso(
      typeof row[0] === "number" ? row[0] : (row[0] as { basicValue: number }).basicValue,
    ),
    close: row[1] as number,
  }));
}

describe("PRICE price windows", () => {
  test("250 consecutive trading days (across two calendar years): at most 2 requests, every close right", async () => {
    const days = await tradingDays();
    expect(days).toHaveLength(250);
    expect(days[0]?.date.slice(0, 4)).toBe("2023");
    const h = useSandbox();
    const values = await Promise.all(days.map((d) => KAISHA.PRICE("7203", "close", d.date, inv())));
    expect(values).toEqual(days.map((d) => d.close));
    expect(h.sent()).toBeLessThanOrEqual(2);
    expect(h.requests().every((r) => r.includes("limit=500"))).toBe(true);
    // Asked again (a recalculation): nothing more.
    await Promise.all(days.map((d) => KAISHA.PRICE("7203", "close", d.date, inv())));
    expect(h.sent()).toBeLessThanOrEqual(2);
  });

  test("after a PRICES spill of the same days, the column sends nothing more (1 request in all)", async () => {
    const days = await tradingDays();
    const h = useSandbox();
    const first = days[0]?.date as string;
    const last = days[days.length - 1]?.date as string;
    await KAISHA.PRICES("7203", first, last, [["close"]], null, 0, inv());
    const spill = h.sent();
    expect(spill).toBe(1);
    const values = await Promise.all(
      days.map((d) => KAISHA.PRICE(7203, "close", isoToSerial(d.date), inv())),
    );
    expect(values).toEqual(days.map((d) => d.close));
    expect(h.sent()).toBe(spill);
  });

  test("the ranges are the key's: once the key is forgotten (Forget key), the column asks the API again", async () => {
    const days = (await tradingDays()).slice(-20);
    const h = useSandbox();
    const first = days[0]?.date as string;
    const last = days[days.length - 1]?.date as string;
    await KAISHA.PRICES("7203", first, last, [["close"]], null, 0, inv());
    const column = () => Promise.all(days.map((d) => KAISHA.PRICE("7203", "close", d.date, inv())));
    expect(await column()).toEqual(days.map((d) => d.close));
    expect(h.sent()).toBe(1);
    await h.client.forgetKey();
    // No range and no answer is left for the key: its year window is asked.
    expect(await column()).toEqual(days.map((d) => d.close));
    expect(h.sent()).toBe(2);
  });

  test("a reopened workbook's spill up to the latest day, read from memory at once, still serves its PRICE column (nothing sent)", async () => {
    const now = Date.parse(SANDBOX_DEFAULT_NOW);
    const spill = () => KAISHA.PRICES("7203", "2026-06-01", null, [["close"]], "asc", 0, inv());
    const evening = useSandbox({ now });
    const shown = (await spill()) as Grid;
    // Reopened: a new runtime whose memory tier holds the spill as the persistent tier decodes it
    // (a new object), so nothing the first runtime learned from it is at hand.
    const reopened = useSandbox({ now });
    for (const key of await evening.store.keys()) {
      const entry = evening.store.peek(key);
      if (key.includes("latest=spill") && entry !== undefined)
        await reopened.store.set(key, {
          ...entry,
          body: freezeAnswer(structuredClone(entry.body)),
        });
    }
    const again = spill();
    expect(again).not.toBeInstanceOf(Promise);
    expect(await settlesAtOnce(again)).toBe(true);
    expect(await again).toEqual(shown);
    // The column reads the rows the spill holds: no request for days it covers.
    const days = shown.slice(-30);
    const values = await Promise.all(
      days.map((row) => KAISHA.PRICE("7203", "close", row[0], inv())),
    );
    expect(values).toEqual(days.map((row) => row[1]));
    expect(reopened.sent()).toBe(0);
  });

  test("a non-trading day gives the last close before it, and field date says which day", async () => {
    const days = await tradingDays();
    const h = useSandbox();
    // 2024-01-01 is a holiday: the answer is the last trading day of 2023 (the window before).
    const lastOf2023 = [...days].reverse().find((d) => d.date < "2024-01-01");
    expect(await KAISHA.PRICE("7203", "close", "2024-01-01", inv())).toBe(lastOf2023?.close);
    expect(await KAISHA.PRICE("7203", "date", "2024-01-01", inv())).toBe(
      isoToSerial(lastOf2023?.date as string),
    );
    expect(h.sent()).toBe(2);
  });

  test("a date before the first trading day of 2005 is #N/A, not a later price", async () => {
    useSandbox();
    const err = await cellError(KAISHA.PRICE("7203", "close", "2005-01-01", inv()));
    expect(err.code).toBe("#N/A");
  });
});
