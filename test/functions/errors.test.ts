// Cell errors and the call lifecycle: #VALUE! vs #N/A with actionable messages in English and
// Japanese, value preview, cancellation, stale answers, and results too large for Excel.
import { financial } from "../../functions/financial-cell";
import { financials } from "../../functions/financials";
import { prices } from "../../functions/prices";
import { rankings } from "../../functions/rankings";
import { disclosures } from "../../functions/disclosures";
import { valuation } from "../../functions/valuation";
import { screen } from "../../functions/screen";
import { run } from "../../functions/run";
import {
  cellError as toCell,
  fullMessageOf,
  LocalCellError,
  MAX_MESSAGE_CHARS,
  toCellError,
} from "../../functions/excel-errors";
import { ArgumentError } from "../../src/excel/args";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);
// Tests that fake the timers give them back even when an expectation fails.
afterEach(() => jest.useRealTimers());

beforeAll(async () => {
  useSandbox();
  await valuation("7203", null, null, null, invocation());
});

const WRONG_KEY = `kaisakey_${"x".repeat(43)}`;

describe("#N/A for everything a user cannot fix by editing the formula", () => {
  test("no key: 'API key not set: open the Kaisha pane', nothing sent", async () => {
    const h = useSandbox({ apiKey: undefined });
    const err = await cellError(financial("7203", "sales", 0, null, null, null, invocation()));
    expect(err).toEqual({ code: "#N/A", message: "API key not set: open the Kaisha pane" });
    expect(h.sent()).toBe(0);
  });

  test("no key, in Japanese", async () => {
    useSandbox({ apiKey: undefined, lang: "ja" });
    const err = await cellError(financial("7203", "sales", 0, null, null, null, invocation()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toBe("APIキーが未設定です：Kaishaパネルを開いて設定してください");
  });

  test("a rejected key (401)", async () => {
    useSandbox({ apiKey: WRONG_KEY });
    const err = await cellError(valuation("7203", null, null, null, invocation()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toContain("401");
    expect(err.message).not.toContain(WRONG_KEY);
  });

  test("an unknown security (404)", async () => {
    useSandbox();
    const err = await cellError(valuation("9999", null, null, null, invocation()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/^Not found/);
  });

  test("no results: an empty list is #N/A, not an empty table", async () => {
    useSandbox({ lang: "ja" });
    const err = await cellError(
      disclosures("7203", "2005-01-01", "2005-01-02", null, null, null, invocation()),
    );
    expect(err).toEqual({
      code: "#N/A",
      message: "条件に該当するデータがありません：期間やコードを見直してください",
    });
  });

  test("the per-minute limit (429)", async () => {
    useSandbox({ sandbox: { ratePerMinute: 1 } });
    await valuation("7203", null, null, null, invocation());
    const err = await cellError(valuation("6758", null, null, null, invocation()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/Too many requests \(429\)/);
  });

  test("the daily limit", async () => {
    useSandbox({ sandbox: { dailyLimit: 1 } });
    await valuation("7203", null, null, null, invocation());
    expect(await cellError(valuation("6758", null, null, null, invocation()))).toEqual({
      code: "#N/A",
      message: expect.stringMatching(
        /^Daily request limit reached: nothing is sent until .+ \(midnight in Japan\)$/,
      ) as unknown,
    });
  });

  test("a connection failure", async () => {
    const h = useSandbox();
    h.setDown(true);
    const err = await cellError(valuation("7203", null, null, null, invocation()));
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/^Cannot reach the API/);
  });

  test("a timeout settles the cell instead of leaving #BUSY!", async () => {
    // Fake timers: no real wait, and the order (timeout at 20 ms, answer at 300 ms) is exact.
    jest.useFakeTimers();
    useSandbox({ sandbox: { latencyMs: 300 }, timeoutMs: 20 });
    const pending = cellError(valuation("7203", null, null, null, invocation()));
    await jest.advanceTimersByTimeAsync(300);
    const err = await pending;
    jest.useRealTimers();
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/^No answer from the API/);
  });

  test("server errors (500) and data unavailable (503)", async () => {
    useSandbox({ sandbox: { faults: { rate: 1, kinds: ["500"] } } });
    expect((await cellError(valuation("7203", null, null, null, invocation()))).message).toMatch(
      /^API server error \(500\)/,
    );
    const h = useSandbox();
    h.sandbox.setPriceDataAvailable(false);
    expect((await cellError(rankings("gainers", 5, null, invocation()))).message).toMatch(
      /^Data temporarily unavailable \(503\)/,
    );
  });
});

describe("#VALUE! for arguments, before any request", () => {
  test("a malformed screening filter names filters (client validation), nothing sent", async () => {
    const h = useSandbox();
    const err = await cellError(
      screen("per:under:15", null, null, null, null, null, null, null, null, invocation()),
    );
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toContain("filters");
    expect(h.sent()).toBe(0);
  });

  test("argument messages in Japanese", async () => {
    const h = useSandbox({ lang: "ja" });
    const err = await cellError(
      financials("72", null, null, null, null, null, null, null, invocation()),
    );
    expect(err.code).toBe("#VALUE!");
    expect(err.message).toMatch(/^会社「72」：/);
    expect(err.message).toContain("証券コード");
    expect(h.sent()).toBe(0);
  });

  test("Office's display language decides the language when Office is present", async () => {
    useSandbox({ lang: "en" });
    (globalThis as { Office?: unknown }).Office = { context: { displayLanguage: "ja-JP" } };
    try {
      const err = await cellError(
        financials("72", null, null, null, null, null, null, null, invocation()),
      );
      expect(err.message).toContain("証券コード");
    } finally {
      delete (globalThis as { Office?: unknown }).Office;
    }
  });
});

describe("value preview", () => {
  test("a formula being typed sends nothing and says how to fetch", async () => {
    const h = useSandbox();
    const err = await cellError(
      financial("7203", "sales", 0, null, null, null, invocation({ isInValuePreview: true })),
    );
    expect(err).toEqual({ code: "#N/A", message: "Preview: press Enter to fetch" });
    const err2 = await cellError(
      prices("7203", null, null, null, null, null, invocation({ isInValuePreview: true })),
    );
    expect(err2.code).toBe("#N/A");
    expect(h.fetches()).toBe(0);
  });

  test("a fresh cached answer is previewed without a request", async () => {
    const h = useSandbox();
    const real = await financial("7203", "sales", -2, null, null, null, invocation());
    const before = h.fetches();
    expect(
      await financial(
        "7203",
        "sales",
        -2,
        null,
        null,
        null,
        invocation({ isInValuePreview: "true" }),
      ),
    ).toBe(real);
    const table = await financials(
      "7203",
      "sales",
      null,
      5,
      null,
      null,
      null,
      null,
      invocation({ isInValuePreview: true }),
    );
    expect((table as unknown[][])[0]).toHaveLength(6);
    expect(h.fetches()).toBe(before);
  });
});

describe("cancellation, stale answers, limits", () => {
  test("Excel's cancel aborts the request and the call settles", async () => {
    jest.useFakeTimers();
    useSandbox({ sandbox: { latencyMs: 300 } });
    const inv = invocation();
    const pending = valuation("7203", null, null, null, inv);
    expect(typeof inv.onCanceled).toBe("function");
    inv.onCanceled?.();
    const settled = cellError(pending);
    await jest.advanceTimersByTimeAsync(300);
    const err = await settled;
    jest.useRealTimers();
    expect(err).toEqual({ code: "#N/A", message: "Request cancelled" });
  });

  test("when the API is down after the cache expired, the last good answer is shown and marked", async () => {
    const h = useSandbox();
    const fresh = (await valuation("7203", "per", 3, 2, invocation())) as unknown[][];
    h.advance(8 * 24 * 3_600_000); // past the weekly revalidation slot (src/client/freshness.ts)
    h.setDown(true);
    const stale = (await valuation("7203", "per", 3, 2, invocation())) as unknown[][];
    expect(stale.slice(2)).toEqual(fresh.slice(2));
    expect(String(stale[0]?.[1])).toContain("stale");
    expect(String(fresh[0]?.[1])).not.toContain("stale");
  });

  test("a result over the size limit is #N/A suggesting limit or the task pane import", async () => {
    useSandbox();
    const huge = Array.from({ length: 3_000 }, () => ["x".repeat(1_000)]);
    const err = await cellError(run(undefined, async () => huge));
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/Result too large/);
    expect(err.message).toMatch(/limit/);
  });

  test("messages are short enough for Excel's error tooltip", () => {
    const long = new ArgumentError("x".repeat(300), { en: "y", ja: "y" });
    expect(toCellError(long, "en").message?.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
  });

  test("a long message is cut at a word or list boundary for the cell, and kept whole for the Problems list", () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const e = toCell("#VALUE!", words);
    const shown = e.message ?? "";
    expect(shown.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(shown.endsWith("…")).toBe(true);
    // The last word shown is whole: the text before "…" ends where a word of the original ends.
    expect(words.startsWith(shown.slice(0, -1))).toBe(true);
    expect(words.charAt(shown.length - 1)).toBe(" ");
    expect(fullMessageOf(e)).toBe(words);
    expect(fullMessageOf(toCell("#N/A", "short"))).toBe("short");
  });

  test("a company name that matches nothing: the cause first, then the accepted forms, in both languages", async () => {
    for (const lang of ["en", "ja"] as const) {
      const h = useSandbox({ lang });
      const err = await cellError(financial("トヨタ", "sales", 0, null, null, null, invocation()));
      expect(err.code).toBe("#VALUE!");
      if (lang === "ja") {
        expect(err.message).toMatch(
          /^「トヨタ」という上場会社は見つかりません。会社 には証券コード/,
        );
      } else {
        expect(err.message).toMatch(
          /^No listed company matches "トヨタ"\. company: use a security code/,
        );
      }
      // One name look-up, no /financials request for a company that does not exist.
      expect(h.requests().filter((r) => r.includes("/financials"))).toEqual([]);
    }
  });

  test("part of a name lists the companies it partly matches first, then asks for the whole name or a code", async () => {
    useSandbox({ lang: "ja" });
    const err = await cellError(financial("大和", "sales", 0, null, null, null, invocation()));
    expect(err.message).toMatch(/^「大和」は上場会社名の一部にしか一致しません（.*7203 大和自動車/);
    expect(err.message).toMatch(/会社 には正式な会社名全体かコードを指定してください$/);
  });

  test("SCREEN's syntax errors echo the conditions as typed, never a placeholder", async () => {
    const h = useSandbox();
    const typed = ["per<15", "per:under:15", "market_cap:gte:abc"];
    for (const filters of typed) {
      const err = await cellError(
        screen(filters, null, null, null, null, null, null, null, null, invocation()),
      );
      expect(err.code).toBe("#VALUE!");
      expect(err.message).toContain(`"${filters}"`);
      expect(err.message).not.toContain('"metric');
    }
    expect(h.sent()).toBe(0);
  });

  test("without the CustomFunctions runtime a local stand-in of the same shape is thrown", () => {
    const e = toCell("#N/A", "m");
    expect(e).toBeInstanceOf(LocalCellError);
    expect(e).toMatchObject({ code: "#N/A", message: "m" });
  });

  test("with the runtime, CustomFunctions.Error is used", () => {
    class RuntimeError {
      constructor(
        public code: string,
        public message?: string,
      ) {}
    }
    (globalThis as { CustomFunctions?: unknown }).CustomFunctions = { Error: RuntimeError };
    try {
      const e = toCellError(new ArgumentError("years", { en: "1-30", ja: "1〜30" }), "en");
      expect(e).toBeInstanceOf(RuntimeError);
      expect(e.code).toBe("#VALUE!");
    } finally {
      delete (globalThis as { CustomFunctions?: unknown }).CustomFunctions;
    }
  });

  test("an unexpected exception still settles as #N/A with a message", async () => {
    useSandbox();
    const err = await cellError(
      run(undefined, async () => {
        throw new TypeError("boom");
      }),
    );
    expect(err.code).toBe("#N/A");
    expect(err.message).toMatch(/^Unexpected error/);
  });
});
