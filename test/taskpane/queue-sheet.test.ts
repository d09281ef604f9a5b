// The queue view's line for the sheet on screen: "12 of 50 companies on this sheet complete", in both languages, from the real pacer.

import { Pacer } from "../../src/client";
import { translator } from "../../taskpane/i18n/messages";
import { sheetCompanies } from "../../taskpane/state/queue-model";

/** The line the queue view shows for a status, or undefined when it shows none. */
function line(lang: "en" | "ja", status: ReturnType<Pacer["status"]>): string | undefined {
  const counts = sheetCompanies(status);
  return counts === undefined ? undefined : translator(lang)("queueSheetComplete", counts);
}

describe("the queue view's sheet line", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("counts the sheet on screen's companies with nothing left, in English and Japanese", async () => {
    const pacer = new Pacer({ ratePerMinute: 60 });
    pacer.prioritize((address) => address.startsWith("Comps!"));
    const permits: Promise<{ sent(): void; done(): void }>[] = [];
    // 50 companies on Comps, two requests each; 5 on another sheet (not counted).
    for (let i = 0; i < 50; i += 1)
      for (const col of ["B", "C"])
        permits.push(
          pacer.acquire(undefined, undefined, false, {
            group: `c${i}`,
            address: `Comps!${col}${i + 2}`,
          }),
        );
    for (let i = 0; i < 5; i += 1)
      permits.push(
        pacer.acquire(undefined, undefined, false, { group: `o${i}`, address: `Other!B${i + 2}` }),
      );
    expect(line("en", pacer.status())).toBe("0 of 50 companies on this sheet complete.");
    // The first burst: 10 requests, the first 5 companies (row order), answered.
    await jest.advanceTimersByTimeAsync(0);
    const granted = await Promise.all(permits.slice(0, 10));
    for (const p of granted) {
      p.sent();
      p.done();
    }
    expect(line("en", pacer.status())).toBe("5 of 50 companies on this sheet complete.");
    expect(line("ja", pacer.status())).toBe("このシートの 50 社中 5 社が完了。");
    // Another sheet on screen: its companies are counted instead.
    pacer.prioritize((address) => address.startsWith("Other!"));
    expect(line("en", pacer.status())).toBe("0 of 5 companies on this sheet complete.");
    pacer.prioritize(undefined);
    expect(line("en", pacer.status())).toBeUndefined();
    // The rest settle (cancelled) so nothing is left waiting after the test.
    for (const p of permits.slice(10)) p.catch(() => undefined);
    pacer.cancelQueued();
  });

  test("one company on screen reads in the singular", () => {
    expect(translator("en")("queueSheetComplete", { c: 0, n: 1 })).toBe(
      "0 of 1 company on this sheet complete.",
    );
  });
});
