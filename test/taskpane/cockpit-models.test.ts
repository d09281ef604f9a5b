// Models behind the analyst's cockpit: company search and its request cost, the builder's
// cache-only preview, the screening histogram, the usage meter and Refresh verdict, the queue, and
// the demo key at start-up. Real client against the in-process sandbox where a request is involved.

import {
  CompanySearch,
  hitText,
  isEdinetLike,
  isSecurityCode,
  searchable,
  searchKey,
} from "../../taskpane/state/company-search";
import { typedCode } from "../../taskpane/components/company-picker";
import { previewCellText, previewFormula } from "../../taskpane/state/formula-preview";
import { edgeText, histogram, shownValue } from "../../taskpane/state/histogram";
import { parseUsage, refreshVerdict, remainingShare } from "../../taskpane/state/usage-model";
import { pauseSeconds, queueVisible, waitSeconds } from "../../taskpane/state/queue-model";
import { applyDemoKeyOnSandbox } from "../../taskpane/state/demo-start";
import type { PaneClient } from "../../taskpane/state/pane-client";
import { setClientForTesting } from "../../src/session";
import { sandboxClient } from "./sandbox-client";

describe("company search", () => {
  test("text worth a request: kanji or kana from one character, Latin letters and digits from two", () => {
    expect(searchable(searchKey("大"))).toBe(true);
    expect(searchable(searchKey("ト"))).toBe(true);
    expect(searchable(searchKey("7"))).toBe(false);
    expect(searchable(searchKey("t"))).toBe(false);
    expect(searchable(searchKey("to"))).toBe(true);
    expect(searchable(searchKey("   "))).toBe(false);
    expect(searchable(searchKey("x".repeat(101)))).toBe(false); // listSecurities: q at most 100
    expect(searchKey(" ＴＯＹＯＴＡ ")).toBe("toyota");
  });

  test("codes typed stand for themselves; names stand for nothing until picked", () => {
    expect(isSecurityCode("７２０３")).toBe(true);
    expect(isSecurityCode("130a")).toBe(true);
    expect(isEdinetLike("e02144")).toBe(true);
    expect(typedCode("７２０３")).toBe("7203");
    expect(typedCode("E02144")).toBe("E02144");
    expect(typedCode("大和")).toBe("");
  });

  test("a typical search costs one request: typing on narrows locally, the same text again is free", async () => {
    const s = sandboxClient();
    const search = new CompanySearch(() => s.client as unknown as PaneClient);
    const first = await search.search("大和");
    expect(first.hits.map((h) => h.code)).toEqual(expect.arrayContaining(["7203", "4502"]));
    expect(first.complete).toBe(true);
    const narrowed = await search.search("大和自");
    expect(narrowed.hits.map((h) => h.code)).toEqual(["7203"]);
    await search.search("大和自動車");
    await search.search("大和");
    expect(s.requests().filter((r) => r.startsWith("/v1/securities"))).toHaveLength(1);
    expect(search.requests).toBe(1);
    expect(s.requests()[0]).toContain("limit=20");
    expect(search.byCode("7203")?.name).toBe("大和自動車（サンプル）");
  });

  test("a code search ranks the exact code first; a miss sends no second request for the same text", async () => {
    const s = sandboxClient();
    const search = new CompanySearch(() => s.client as unknown as PaneClient);
    const r = await search.search("7203");
    expect(r.hits[0]?.code).toBe("7203");
    expect((await search.search("zzqq")).hits).toEqual([]);
    expect((await search.search("zzqq")).hits).toEqual([]);
    expect(search.requests).toBe(2);
    // Narrowing that finds nothing asks the API (it may match more loosely than this filter).
    await search.search("72035");
    expect(search.requests).toBe(3);
  });

  test("concurrent identical searches share one request; an abandoned wait keeps the answer", async () => {
    const s = sandboxClient();
    const search = new CompanySearch(() => s.client as unknown as PaneClient);
    const ac = new AbortController();
    const abandoned = search.search("ソラ", ac.signal);
    ac.abort();
    await expect(abandoned).rejects.toThrow();
    const [a, b] = await Promise.all([search.search("ソラ"), search.search("ソラ")]);
    expect(a.hits[0]?.code).toBe("6758");
    expect(b.hits[0]?.code).toBe("6758");
    expect(search.requests).toBe(1);
  });

  test("the list line: code, name, industry (English in the English pane), market", () => {
    const hit = { code: "7203", name: "トヨタ自動車", industry: "輸送用機器", market: "Prime" };
    expect(hitText(hit, "ja")).toBe("7203 トヨタ自動車 · 輸送用機器 · プライム");
    expect(hitText(hit, "en")).toBe("7203 トヨタ自動車 · Transportation equipment · Prime");
    expect(hitText({ ...hit, market: null }, "ja")).toBe("7203 トヨタ自動車 · 輸送用機器");
  });
});

describe("builder preview", () => {
  afterEach(() => setClientForTesting(undefined));

  test("from the cache: nothing sent when not cached; the value once fetched; then the cache answers", async () => {
    const s = sandboxClient();
    setClientForTesting(s.client);
    const args = ["7203", "sales", 0, "annual", undefined, "million_jpy"];
    expect(await previewFormula("FINANCIAL", args, true)).toEqual({ kind: "not_cached" });
    expect(s.requests()).toEqual([]);
    const fetched = await previewFormula("FINANCIAL", args, false);
    expect(fetched.kind).toBe("value");
    expect(s.requests()).toHaveLength(1);
    const cached = await previewFormula("FINANCIAL", args, true);
    expect(cached).toEqual(fetched);
    expect(s.requests()).toHaveLength(1);
    const value = fetched.kind === "value" ? fetched.rows[0]?.[0] : undefined;
    expect(typeof value).toBe("number");
  });

  test("argument errors show the function's own message; cell references are not previewed", async () => {
    const s = sandboxClient();
    setClientForTesting(s.client);
    const bad = await previewFormula("FINANCIAL", ["7203", "operating_income"], true);
    expect(bad.kind).toBe("error");
    expect(bad.kind === "error" ? bad.code : "").toBe("#VALUE!");
    expect(bad.kind === "error" ? bad.message : "").toMatch(/operating_income|item/);
    expect(await previewFormula("FINANCIAL", [{ ref: "B2" }, "sales"], true)).toEqual({
      kind: "needs_cells",
    });
    expect(s.requests()).toEqual([]);
  });

  test("no key: the preview says so without sending the user to the pane it is in", async () => {
    const s = sandboxClient();
    s.client.setApiKey(undefined);
    setClientForTesting(s.client);
    expect(await previewFormula("FINANCIAL", ["7203", "sales"], false)).toEqual({ kind: "no_key" });
    expect(s.requests()).toEqual([]);
  });

  test("preview cells read as the sheet would show them", () => {
    expect(previewCellText(1234567.5, "en")).toBe("1,234,567.5");
    expect(previewCellText(null, "ja")).toBe("");
    expect(previewCellText({ type: "Double", basicValue: 12, numberFormat: "0" }, "ja")).toBe("12");
    // A percentage is a fraction with a % format: it reads as the sheet shows it, not 0.0368.
    expect(
      previewCellText({ type: "Double", basicValue: 0.0368, numberFormat: "0.00%" }, "ja"),
    ).toBe("3.68%");
    expect(
      previewCellText({ type: "Double", basicValue: 45382, numberFormat: "yyyy-mm-dd" }, "en"),
    ).toBe("2024-03-31");
    expect(previewCellText({ type: "Entity", text: "7203" }, "ja")).toBe("7203");
  });
});

describe("screening histogram", () => {
  test("round-edged bins that cover every value; the counts add up to the values charted", () => {
    expect(histogram([1, 2, 3, 4], 2)).toEqual([
      { from: 0, to: 2, count: 1 },
      { from: 2, to: 4, count: 3 },
    ]);
    const bins = histogram([0, 10, 10, 5, Number.NaN], 4);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(4);
    expect(bins[bins.length - 1]?.count).toBe(2);
    expect(histogram([7, 7, 7])).toEqual([{ from: 7, to: 7, count: 3 }]);
    expect(histogram([])).toEqual([]);
    // PER-like values: widths of 1, 2, 2.5 or 5 × 10^k, edges on multiples of the width.
    const per = histogram([4.2, 8.8, 11.3, 12.9, 15.1, 27.6, 33.3]);
    const width = (per[0]?.to ?? 0) - (per[0]?.from ?? 0);
    expect([1, 2, 2.5, 5, 10]).toContain(width);
    expect(per.every((b) => Number.isInteger(b.from / width))).toBe(true);
    expect(per[0]?.from).toBeLessThanOrEqual(4.2);
    expect(per[per.length - 1]?.to).toBeGreaterThanOrEqual(33.3);
    expect(per.reduce((n, b) => n + b.count, 0)).toBe(7);
    // Decimal widths without binary noise.
    expect(histogram([0.1, 0.3, 0.7]).map((b) => b.from)).toEqual(
      histogram([0.1, 0.3, 0.7]).map((b) => Number(b.from.toFixed(6))),
    );
  });

  test("edge labels: separators for large numbers, the decimals a narrow width needs", () => {
    const big = histogram([1200, 5400, 9800]);
    expect(edgeText(5000, big)).toBe("5,000");
    const small = histogram([0.12, 0.31, 0.48]);
    expect(edgeText(small[1]?.from ?? 0, small)).toMatch(/^0\.\d+$/);
  });

  test("values in the units the preview table shows (億円, %)", () => {
    expect(shownValue(350_000_000_000, "jpy")).toBe(3500);
    expect(shownValue(0.125, "ratio")).toBe(12.5);
    expect(shownValue(14.4, "times")).toBe(14.4);
  });
});

describe("usage meter and Refresh confirmation", () => {
  test("parses /usage; the meter is the remaining share of the daily limit when known", () => {
    const u = parseUsage({
      remaining: 4990,
      daily_limit: 5000,
      reset_at: "2026-01-01T00:00:00+09:00",
    });
    expect(u).toEqual({ remaining: 4990, dailyLimit: 5000, resetAt: "2026-01-01T00:00:00+09:00" });
    expect(remainingShare(u!)).toBeCloseTo(0.998);
    expect(remainingShare(parseUsage({ remaining: 3700 })!)).toBeUndefined();
    expect(parseUsage({})).toBeUndefined();
  });

  test("the verdict counts formulas only for Refresh all and compares with what is left", () => {
    const e = { formulaRequests: 12, imports: 3 };
    expect(refreshVerdict(e, true, { remaining: 100 })).toEqual({
      requests: 15,
      remaining: 100,
      enough: true,
    });
    expect(refreshVerdict(e, false, { remaining: 2 })).toEqual({
      requests: 3,
      remaining: 2,
      enough: false,
    });
    expect(refreshVerdict(e, true, undefined).enough).toBeUndefined();
  });
});

describe("queue", () => {
  test("shown while requests wait or a 429 pause holds; seconds rounded up", () => {
    const now = 1_000_000;
    expect(queueVisible({ waiting: 0, inFlight: 3, estimatedWaitMs: 0 }, now)).toBe(false);
    expect(queueVisible({ waiting: 2, inFlight: 0, estimatedWaitMs: 1500 }, now)).toBe(true);
    expect(
      queueVisible({ waiting: 0, inFlight: 0, estimatedWaitMs: 0, pausedUntil: now + 10 }, now),
    ).toBe(true);
    expect(waitSeconds({ waiting: 2, inFlight: 0, estimatedWaitMs: 1500 })).toBe(2);
    expect(waitSeconds({ waiting: 0, inFlight: 0, estimatedWaitMs: 0 })).toBe(0);
    expect(
      pauseSeconds({ waiting: 0, inFlight: 0, estimatedWaitMs: 0, pausedUntil: now + 2001 }, now),
    ).toBe(3);
  });

  test("the real client's queue: requests over the budget wait, cancelQueued settles them", async () => {
    // Fake timers: the pacer's spent tokens come back after a minute; nothing here waits for that.
    jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
    const s = sandboxClient();
    const paced = s.client.withOptions({ ratePerMinute: 2 });
    const seen: number[] = [];
    const off = paced.onQueueChange((q) => seen.push(q.waiting));
    const calls = ["a1", "b2", "c3", "d4"].map((q) =>
      paced.securities({ q }).then(
        () => "ok",
        (e: { code?: string }) => e.code,
      ),
    );
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(paced.queueStatus().waiting).toBeGreaterThan(0);
    expect(paced.cancelQueued()).toBeGreaterThan(0);
    const outcomes = await Promise.all(calls);
    off();
    expect(outcomes.filter((o) => o === "aborted").length).toBeGreaterThan(0);
    expect(s.requests().length).toBeLessThanOrEqual(2);
    expect(seen.length).toBeGreaterThan(0);
    jest.clearAllTimers();
    jest.useRealTimers();
  });
});

describe("start-up with the sandbox", () => {
  function fakeSession() {
    let key: string | undefined;
    const remembered: boolean[] = [];
    return {
      remembered,
      keys: { current: () => key },
      setKey: async (k: string, remember = false) => {
        key = k;
        remembered.push(remember);
      },
    };
  }

  test("the demo key is used on the build's own sandbox only, never remembered, never elsewhere", async () => {
    const s = fakeSession();
    const sandbox = "http://127.0.0.1:8787/v1";
    expect(
      await applyDemoKeyOnSandbox(s, {
        demoKey: "demo",
        sandboxBaseUrl: sandbox,
        baseUrl: "https://api.irbank.net/v1",
      }),
    ).toBe(false);
    expect(s.keys.current()).toBeUndefined();
    expect(
      await applyDemoKeyOnSandbox(s, { demoKey: "", sandboxBaseUrl: sandbox, baseUrl: sandbox }),
    ).toBe(false);
    expect(
      await applyDemoKeyOnSandbox(s, {
        demoKey: "demo",
        sandboxBaseUrl: sandbox,
        baseUrl: `${sandbox}/`,
      }),
    ).toBe(true);
    expect(s.keys.current()).toBe("demo");
    expect(s.remembered).toEqual([false]);
    // A key the user set is never replaced.
    const own = fakeSession();
    await own.setKey("mine");
    expect(
      await applyDemoKeyOnSandbox(own, {
        demoKey: "demo",
        sandboxBaseUrl: sandbox,
        baseUrl: sandbox,
      }),
    ).toBe(false);
    expect(own.keys.current()).toBe("mine");
  });
});
