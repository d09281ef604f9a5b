// The Changes log: the cell diff, what replaced answers brought (a new period, a restated one, a new
// price day) against the in-process sandbox, and an update recorded into the workbook's bounded log.
import { diffCells, type CellValue } from "../../../taskpane/changes/change-diff";
import { companyMoves } from "../../../taskpane/changes/answer-changes";
import {
  forgetReplaced,
  replacedSince,
  unwatchAnswers,
  watchAnswers,
} from "../../../taskpane/changes/answer-watch";
import { appendLog, readLog, type LogStorage } from "../../../taskpane/changes/change-log";
import { onUpdateLogged, recordUpdate } from "../../../taskpane/changes/record-update";
import { logRows } from "../../../taskpane/excel/change-log-sheet";
import type { CellTrace } from "../../../taskpane/trace/trace-model";
import { resetSession, useSandbox } from "../../functions/harness";

function cell(address: string, value: unknown, extra: Partial<CellValue> = {}): CellValue {
  return {
    sheet: "Model",
    address,
    anchor: `Model!${address}`,
    formula: '=KAISHA.FINANCIAL(7203,"sales")',
    row: 0,
    col: 0,
    value,
    ...extra,
  };
}

function memoryStorage(): LogStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

afterEach(() => {
  unwatchAnswers();
  forgetReplaced();
});
afterAll(resetSession);

describe("the cell diff", () => {
  test("changed numbers with their % difference; unchanged, still-waiting cells left out", () => {
    const before = [cell("B2", 100), cell("B3", 50), cell("B4", "x"), cell("B5", 7)];
    const after = [cell("B2", 110), cell("B3", 50), cell("B4", "y"), cell("B5", "#BUSY!")];
    const changed = diffCells(before, after);
    expect(changed.map((c) => [c.address, c.old, c.new, c.pct])).toEqual([
      ["B2", 100, 110, 10],
      ["B4", "x", "y", undefined],
    ]);
  });

  test("a spill that grew or shrank: the new cells from empty, the gone cells to empty", () => {
    const before = [cell("C2", 1, { row: 0 }), cell("C3", 2, { row: 1 })];
    const after = [cell("C2", 1, { row: 0 }), cell("C4", 3, { row: 2 })];
    expect(diffCells(before, after).map((c) => [c.address, c.old, c.new])).toEqual([
      ["C4", "", 3],
      ["C3", 2, ""],
    ]);
  });
});

describe("what a replaced answer brought", () => {
  test("results day in the sandbox: the new quarter, and nothing restated", async () => {
    const h = useSandbox();
    h.sandbox.setNow("2026-11-05T00:00:00Z");
    watchAnswers(h.store);
    const q = { security_code: "7203", period: "quarterly" as const, years: 2 };
    const before = await h.client.financials(q);
    h.sandbox.setNow("2026-11-20T09:00:00Z");
    const after = await h.client.financials(q, { cache: "reload" });
    expect(after.periods.length).toBeGreaterThan(before.periods.length);
    const moves = companyMoves(replacedSince(0)).get("7203");
    expect(moves?.newPeriods).toEqual(["2027/03 Q2"]);
    expect(moves?.restated).toEqual([]);
  });

  test("an answer stored again unchanged is no replacement; Refresh all's clear keeps the old bodies", async () => {
    const h = useSandbox();
    h.sandbox.setNow("2026-11-05T00:00:00Z");
    watchAnswers(h.store);
    const q = { security_code: "7203", period: "quarterly" as const, years: 2 };
    await h.client.financials(q);
    await h.client.financials(q, { cache: "reload" });
    expect(replacedSince(0)).toEqual([]);
    // Refresh all empties the cache first (client.invalidateAll): the old answer is still kept.
    await h.client.invalidateAll();
    h.sandbox.setNow("2026-11-20T09:00:00Z");
    await h.client.financials(q);
    expect(companyMoves(replacedSince(0)).get("7203")?.newPeriods).toEqual(["2027/03 Q2"]);
  });

  test("a restated period and a new price day, from bodies", () => {
    const row = (fy: string, sales: number) => ({ fiscal_year: fy, sales });
    const moves = companyMoves([
      {
        path: "/financials",
        query: new URLSearchParams("security_code=6758&period=annual"),
        before: { periods: [row("2025/03", 100), row("2026/03", 200)] },
        after: { periods: [row("2025/03", 101), row("2026/03", 200)] },
        at: 1,
      },
      {
        path: "/securities/6758/prices",
        query: new URLSearchParams("limit=1"),
        before: { prices: [{ date: "2026-11-19" }] },
        after: { prices: [{ date: "2026-11-20" }] },
        at: 2,
      },
    ]).get("6758");
    expect(moves).toEqual({
      company: "6758",
      newPeriods: [],
      restated: [{ period: "2025/03", items: ["sales"] }],
      newPriceDay: "2026-11-20",
    });
  });
});

describe("recording an update", () => {
  const trace = (period: string): CellTrace => ({
    address: "Model!B2",
    anchor: "Model!B2",
    formula: "",
    fn: "FINANCIAL",
    company: { code: "6758" },
    item: { key: "sales", label: "売上高" },
    period: { label: `${period}期`, fiscal_year: period },
    source: {
      kind: "filings",
      disclosuresCached: true,
      filings: [
        {
          doc_id: "1",
          source: "tdnet",
          title: "決算短信",
          date: "2025-05-10",
          kind: "tanshin",
          correction: false,
        },
        {
          doc_id: "2",
          source: "tdnet",
          title: "【訂正】決算短信",
          date: "2026-11-18",
          kind: "tanshin",
          correction: true,
        },
      ],
    },
    qualifiers: [],
  });

  test("exactly the changed cells, restatement first with its 訂正 filing, waiting until the cells settle", async () => {
    jest.useFakeTimers();
    try {
      const storage = memoryStorage();
      let values: CellValue[] = [cell("B2", 100), cell("B3", 5)];
      let now = 1_000;
      const seen: unknown[] = [];
      const off = onUpdateLogged((u) => seen.push(u.id));
      // The replaced answer is noted through the watched store, as the client stores it.
      const store = {
        entries: new Map<string, { body: unknown; storedAt: number; bytes: number }>(),
        get: async (k: string) => store.entries.get(k),
        set: async (k: string, e: { body: unknown; storedAt: number; bytes: number }) =>
          void store.entries.set(k, e),
        delete: async (k: string) => void store.entries.delete(k),
        clear: async () => store.entries.clear(),
        keys: async () => [...store.entries.keys()],
        peek: (k: string) => store.entries.get(k),
      };
      const key = "p1/financials?period=annual&security_code=6758";
      await store.set(key, {
        body: { periods: [{ fiscal_year: "2025/03", sales: 100 }] },
        storedAt: 0,
        bytes: 1,
      });
      watchAnswers(store, () => now);
      const recorded = recordUpdate(
        "update",
        async () => {
          await store.set(key, {
            body: { periods: [{ fiscal_year: "2025/03", sales: 101 }] },
            storedAt: 1,
            bytes: 1,
          });
          values = [cell("B2", "#BUSY!"), cell("B3", 5)];
          setTimeout(() => (values = [cell("B2", 101), cell("B3", 5)]), 1_000);
          return "done";
        },
        {
          read: async () => values,
          trace: async (cells) => cells.map(() => trace("2025/03")),
          storage,
          workbook: () => "Book1.xlsx",
          now: () => now,
          sleep: (ms) =>
            new Promise((resolve) => {
              now += ms;
              setTimeout(resolve, ms);
            }),
        },
      );
      const { result, logged: written } = await recorded;
      // The update's caller goes on before the cells have settled.
      expect(result).toBe("done");
      expect(readLog(storage, "Book1.xlsx")).toEqual([]);
      await jest.advanceTimersByTimeAsync(2_000);
      await written;
      const [logged] = readLog(storage, "Book1.xlsx");
      expect(logged?.groups).toEqual([
        {
          kind: "restatement",
          company: "6758",
          label: "2025/03",
          filing: { doc_id: "2", title: "【訂正】決算短信", date: "2026-11-18", correction: true },
          cells: [
            {
              sheet: "Model",
              address: "B2",
              item: "売上高",
              period: "2025/03期",
              old: 100,
              new: 101,
              pct: 1,
            },
          ],
        },
      ]);
      expect(seen).toEqual([logged?.id]);
      // Another workbook has its own log.
      expect(readLog(storage, "Other.xlsx")).toEqual([]);
      off();
    } finally {
      jest.useRealTimers();
    }
  });

  test("the log keeps the latest 30 updates, newest first, and survives a read back", () => {
    const storage = memoryStorage();
    for (let i = 0; i < 35; i++)
      appendLog(storage, "Book1.xlsx", {
        id: String(i),
        at: i,
        trigger: "refresh",
        groups: [],
        more: 0,
      });
    const log = readLog(storage, "Book1.xlsx");
    expect(log).toHaveLength(30);
    expect(log[0]?.id).toBe("34");
    expect(log[29]?.id).toBe("5");
  });
});

describe("the log as a sheet", () => {
  test("one row per changed cell, oldest update first, time as a serial, % as a fraction; updates already on the sheet skipped", () => {
    const update = (id: string, at: number) => ({
      id,
      at,
      trigger: "refresh" as const,
      more: 0,
      groups: [
        {
          kind: "restatement" as const,
          company: "6758",
          label: "2025/03",
          filing: { doc_id: "S1", title: "訂正", date: "2026-11-18", correction: true },
          cells: [{ sheet: "Model", address: "B2", item: "売上高", old: 100, new: 101, pct: 1 }],
        },
      ],
    });
    const text = { sheet: "変更履歴", header: [], kind: { restatement: "訂正" } };
    // 2026-11-20 00:00 UTC is 09:00 JST: serial 46346.375.
    const at = Date.UTC(2026, 10, 20);
    const { cells, formats } = logRows(
      [update("b", at + 1), update("a", at)],
      new Set(["b"]),
      text,
    );
    expect(cells).toEqual([
      [
        "a",
        46346.375,
        "訂正",
        "6758",
        "2025/03",
        "訂正 (S1)",
        "Model",
        "B2",
        "売上高",
        "",
        100,
        101,
        0.01,
      ],
    ]);
    expect(formats[0]?.[12]).toBe("0.0%");
    expect(cells.flat().some((v) => typeof v === "string" && v.startsWith("="))).toBe(false);
  });
});
