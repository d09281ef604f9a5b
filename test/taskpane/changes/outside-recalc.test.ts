// A recalculation the analyst starts in Excel (F9, an edited formula) is logged in Changes too: the
// cells an answer replaced meanwhile moved, against the cells as last read; never a cell whose
// formula the analyst edited, nor one no replaced answer explains.
import type { CellValue } from "../../../taskpane/changes/change-diff";
import {
  forgetReplaced,
  onAnswerReplaced,
  unwatchAnswers,
  watchAnswers,
} from "../../../taskpane/changes/answer-watch";
import { readLog, type LogStorage } from "../../../taskpane/changes/change-log";
import {
  forgetBaseline,
  noteOutsideReplacement,
  recordUpdate,
  takeBaseline,
  type RecorderDeps,
} from "../../../taskpane/changes/record-update";
import type { CellTrace } from "../../../taskpane/trace/trace-model";

const SONY = '=KAISHA.FINANCIAL(6758,"sales","2025/03")';
const TOYOTA = '=KAISHA.FINANCIAL(7203,"sales","2025/03")';

function cell(address: string, formula: string, value: unknown): CellValue {
  return { sheet: "Model", address, anchor: `Model!${address}`, formula, row: 0, col: 0, value };
}

function trace(c: { formula: string }): CellTrace {
  const code = c.formula.includes("6758") ? "6758" : "7203";
  return {
    address: "",
    anchor: "",
    formula: c.formula,
    fn: "FINANCIAL",
    company: { code },
    item: { key: "sales", label: "売上高" },
    period: { label: "2025年3月期", fiscal_year: "2025/03" },
    qualifiers: [],
  };
}

type Entry = { body: unknown; storedAt: number; bytes: number };

function fakeStore() {
  const entries = new Map<string, Entry>();
  return {
    entries,
    get: async (k: string) => entries.get(k),
    set: async (k: string, e: Entry) => void entries.set(k, e),
    delete: async (k: string) => void entries.delete(k),
    clear: async () => entries.clear(),
    keys: async () => [...entries.keys()],
    peek: (k: string) => entries.get(k),
  };
}

function memoryStorage(): LogStorage {
  const data = new Map<string, string>();
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const KEY = "p1/financials?period=annual&security_code=6758";
const body = (sales: number) => ({ periods: [{ fiscal_year: "2025/03", sales }] });

let off: (() => void) | undefined;
beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  off?.();
  unwatchAnswers();
  forgetReplaced();
  forgetBaseline();
  jest.useRealTimers();
});

/** The recorder's parts over a workbook held in `sheet.values` and a clock moved by its sleeps. */
function setUp() {
  const sheet = {
    values: [cell("B2", SONY, 100), cell("B3", TOYOTA, 5), cell("B4", TOYOTA, 7)],
    reads: 0,
  };
  let now = 1_000;
  const storage = memoryStorage();
  const deps: RecorderDeps = {
    read: async () => {
      sheet.reads += 1;
      return sheet.values;
    },
    trace: async (cells) => cells.map(trace),
    storage,
    workbook: () => "Book1.xlsx",
    now: () => now,
    sleep: (ms) =>
      new Promise((resolve) => {
        now += ms;
        setTimeout(resolve, ms);
      }),
    idle: () => true,
  };
  const store = fakeStore();
  watchAnswers(store, () => now);
  off = onAnswerReplaced((r) => noteOutsideReplacement(r.at, deps));
  return { sheet, deps, store, storage, log: () => readLog(storage, "Book1.xlsx") };
}

test("F9 in Excel: the cell a replaced answer moved is logged as a recalculation; an edited formula and an input's move are not", async () => {
  const { sheet, deps, store, log } = setUp();
  await store.set(KEY, { body: body(100), storedAt: 0, bytes: 1 });
  takeBaseline(deps);
  // Not at once: the open reads the workbook itself first.
  await jest.advanceTimersByTimeAsync(0);
  expect(sheet.reads).toBe(0);
  await jest.advanceTimersByTimeAsync(10_000);
  expect(sheet.reads).toBe(1);
  // The analyst presses F9: the due answer is asked again and replaced (a 訂正), B2 moves; the
  // analyst had edited B3's formula, and B4 moved with an input cell no answer explains.
  await store.set(KEY, { body: body(101), storedAt: 1, bytes: 1 });
  sheet.values = [
    cell("B2", SONY, 101),
    cell("B3", '=KAISHA.FINANCIAL(7203,"sales","2024/03")', 4),
    cell("B4", TOYOTA, 8),
  ];
  await jest.advanceTimersByTimeAsync(5_000);
  const [update, ...rest] = log();
  expect(rest).toEqual([]);
  expect(update?.trigger).toBe("recalculation");
  expect(update?.groups).toEqual([
    {
      kind: "restatement",
      company: "6758",
      label: "2025/03",
      cells: [
        {
          sheet: "Model",
          address: "B2",
          item: "売上高",
          period: "2025年3月期",
          old: 100,
          new: 101,
          pct: 1,
        },
      ],
    },
  ]);
});

test("a pane update starting before the recalculation is logged logs it first, then its own changes only", async () => {
  const { sheet, deps, store, log } = setUp();
  await store.set(KEY, { body: body(100), storedAt: 0, bytes: 1 });
  takeBaseline(deps);
  await jest.advanceTimersByTimeAsync(10_000);
  await store.set(KEY, { body: body(101), storedAt: 1, bytes: 1 });
  sheet.values = [cell("B2", SONY, 101), cell("B3", TOYOTA, 5), cell("B4", TOYOTA, 7)];
  // Refresh all at once, before the recalculation's record has read the workbook.
  const { logged } = await recordUpdate(
    "refresh",
    async () => {
      sheet.values = [cell("B2", SONY, 101), cell("B3", TOYOTA, 6), cell("B4", TOYOTA, 7)];
    },
    deps,
  );
  await jest.advanceTimersByTimeAsync(5_000);
  await logged;
  const [refresh, recalculation, ...rest] = log();
  expect(rest).toEqual([]);
  expect(recalculation?.trigger).toBe("recalculation");
  expect(recalculation?.groups.flatMap((g) => g.cells.map((c) => c.address))).toEqual(["B2"]);
  expect(refresh?.trigger).toBe("refresh");
  expect(refresh?.groups.flatMap((g) => g.cells.map((c) => c.address))).toEqual(["B3"]);
});

test("nothing is read or logged for a replacement before a baseline exists, nor while the pane's own update runs", async () => {
  const { sheet, deps, store, log } = setUp();
  await store.set(KEY, { body: body(100), storedAt: 0, bytes: 1 });
  await store.set(KEY, { body: body(101), storedAt: 1, bytes: 1 });
  await jest.advanceTimersByTimeAsync(5_000);
  expect(sheet.reads).toBe(0);
  expect(log()).toEqual([]);
  const { logged } = await recordUpdate(
    "update",
    async () => {
      await store.set(KEY, { body: body(102), storedAt: 2, bytes: 1 });
      sheet.values = [cell("B2", SONY, 102), cell("B3", TOYOTA, 5), cell("B4", TOYOTA, 7)];
    },
    deps,
  );
  await jest.advanceTimersByTimeAsync(5_000);
  await logged;
  expect(log().map((u) => u.trigger)).toEqual(["update"]);
});

test("a background update's own re-entry explains its replaced answer: logged once, as that update, the workbook not read again", async () => {
  const { sheet, deps, store, log } = setUp();
  await store.set(KEY, { body: body(100), storedAt: 0, bytes: 1 });
  takeBaseline(deps);
  await jest.advanceTimersByTimeAsync(10_000);
  const reads = sheet.reads;
  // The revalidator stores the new answer, then the pane re-enters the cells that read it.
  await store.set(KEY, { body: body(101), storedAt: 1, bytes: 1 });
  const { logged } = await recordUpdate(
    "revalidation",
    async () => {
      sheet.values = [cell("B2", SONY, 101), cell("B3", TOYOTA, 5), cell("B4", TOYOTA, 7)];
    },
    deps,
    ["Model!B2"],
  );
  await jest.advanceTimersByTimeAsync(10_000);
  await logged;
  expect(log().map((u) => u.trigger)).toEqual(["revalidation"]);
  // Its own two reads (before and after): no whole-workbook read for the replacement.
  expect(sheet.reads - reads).toBe(2);
});
