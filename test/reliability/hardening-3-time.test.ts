// Time that can jump, and time zones east of Japan: the user's own today is the latest day, never the future.
import * as TYPED from "../../functions/index";
import { isoToSerial } from "../../src/excel/dates";
import { invocation, resetSession, shown, useSandbox } from "../functions/harness";

const KAISHA = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

jest.setTimeout(60_000);
afterAll(resetSession);

/** 21:30 JST on Friday 2026-11-20 (the sandbox's data day): 01:30 on Saturday the 21st in Auckland. */
const EVENING_IN_JAPAN = Date.parse("2026-11-20T12:30:00Z");
/** Hours east of UTC in November: New Zealand daylight time, Japan, Pacific standard time. */
const AUCKLAND = 13;
const TOKYO = 9;
const LOS_ANGELES = -8;
const serial = (iso: string) => isoToSerial(iso) as number;

/**
 * Runs `body` in a time zone `offsetHours` east of UTC at the test's instants (Excel's TODAY() is
 * the local day). Jest's process.env is the worker's copy, so TZ cannot be changed from a test:
 * the zone's offset is what the runtime reports.
 */
async function inZone<T>(offsetHours: number, body: () => Promise<T>): Promise<T> {
  const spy = jest.spyOn(Date.prototype, "getTimezoneOffset").mockReturnValue(-offsetHours * 60);
  try {
    return await body();
  } finally {
    spy.mockRestore();
  }
}

const price = (date?: number) => shown(KAISHA.PRICE("7203", "close", date ?? null, invocation()));
const financial = (date: number) =>
  shown(KAISHA.FINANCIAL("7203", "sales", date, null, null, null, invocation()));

describe("a date that is today where the user is (up to a day ahead of JST) means the latest day", () => {
  test("Auckland 01:30 (21:30 JST the day before): PRICE(…,TODAY()) is the latest close and FINANCIAL(…,TODAY()) the latest period; no request names the day", async () => {
    await inZone(AUCKLAND, async () => {
      const h = useSandbox({ now: EVENING_IN_JAPAN });
      const today = serial("2026-11-21"); // =TODAY() in Auckland
      const latest = await price();
      expect(latest).toMatchObject({ value: expect.any(Number) });
      expect(await price(today)).toEqual(latest);
      const japanToday = await financial(serial("2026-11-20"));
      expect(japanToday).toMatchObject({ value: expect.any(Number) });
      expect(await financial(today)).toEqual(japanToday);
      expect(h.requests().some((r) => r.includes("2026-11-21"))).toBe(false);
    });
  });

  test("Auckland 01:30: a table's period argument (FINANCIALS as_of =TODAY()) is the latest too, as on Japan's today", async () => {
    await inZone(AUCKLAND, async () => {
      useSandbox({ now: EVENING_IN_JAPAN });
      const table = (asOf: number) =>
        shown(
          KAISHA.FINANCIALS(
            "7203",
            [["sales"]],
            null,
            3,
            asOf,
            null,
            null,
            null,
            null,
            invocation(),
          ),
        );
      const japanToday = await table(serial("2026-11-20"));
      expect(japanToday).toMatchObject({ value: expect.any(Array) });
      expect(await table(serial("2026-11-21"))).toEqual(japanToday);
      expect(await table(serial("2026-11-22"))).toMatchObject({ error: "#N/A" });
    });
  });

  test("Auckland 01:30: a range's from/to and SCREEN's as_of of the user's today answer as Japan's today, no request names the day, a day later is #N/A", async () => {
    await inZone(AUCKLAND, async () => {
      const h = useSandbox({ now: EVENING_IN_JAPAN });
      const calls: Record<string, (date: number) => Promise<unknown>> = {
        "PRICES from": (d) =>
          shown(KAISHA.PRICES("7203", d, null, [["close"]], null, null, invocation())),
        "DISCLOSURES from": (d) =>
          shown(KAISHA.DISCLOSURES("7203", d, null, null, 5, null, null, invocation())),
        "JSFMARGIN to": (d) =>
          shown(KAISHA.JSFMARGIN("7203", "1m", d, null, null, null, null, invocation())),
        "SCREEN as_of": (d) =>
          shown(
            KAISHA.SCREEN(
              [["per:lte:15"]],
              "per",
              null,
              null,
              null,
              d,
              3,
              null,
              null,
              invocation(),
            ),
          ),
      };
      for (const [name, call] of Object.entries(calls)) {
        const japanToday = await call(serial("2026-11-20"));
        // The sandbox's day has no close or filing yet: a range from it has no rows.
        if (!name.endsWith(" from"))
          expect([name, japanToday]).toEqual([name, { value: expect.any(Array) }]);
        expect([name, await call(serial("2026-11-21"))]).toEqual([name, japanToday]);
        // SCREEN's as_of: the contract check's #VALUE! (openapi.json getScreening: not in the future).
        expect([name, await call(serial("2026-11-22"))]).toEqual([
          name,
          expect.objectContaining({ error: name.startsWith("SCREEN") ? "#VALUE!" : "#N/A" }),
        ]);
      }
      // A range's end is a bound: one after the user's today is every day up to the latest.
      const upTo = (d: number) =>
        shown(KAISHA.DISCLOSURES("7203", null, d, null, 5, null, null, invocation()));
      const upToJapanToday = await upTo(serial("2026-11-20"));
      expect(upToJapanToday).toEqual({ value: expect.any(Array) });
      expect(await upTo(serial("2026-11-21"))).toEqual(upToJapanToday);
      expect(await upTo(serial("2026-11-30"))).toEqual(upToJapanToday);
      expect(h.requests().filter((r) => /2026-11-(2[1-9]|30)/.test(r))).toEqual([]);
    });
  });

  test("the same instant in Tokyo and Los Angeles, and two days ahead in Auckland: the date is in the future (#N/A, nothing sent)", async () => {
    for (const [offset, iso] of [
      [TOKYO, "2026-11-21"],
      [LOS_ANGELES, "2026-11-21"],
      [AUCKLAND, "2026-11-22"],
    ] as const) {
      await inZone(offset, async () => {
        const h = useSandbox({ now: EVENING_IN_JAPAN });
        const future = {
          error: "#N/A",
          message: `The date ${iso} is in the future (today is 2026-11-20): give a date up to today`,
        };
        expect(await price(serial(iso))).toEqual(future);
        expect(await financial(serial(iso))).toEqual(future);
        expect(h.sent()).toBe(0);
      });
    }
  });
});
