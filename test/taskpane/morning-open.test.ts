// The open of a workbook on each host: Windows/Mac cells recalculated from what is stored (sheet on screen first), the web's left alone, Update held until chosen, and what the pane reports.

import { Revalidator, type RevalidationTask } from "../../src/client";
import {
  companyOf,
  followOpen,
  openWorkbook,
  type OpenHost,
} from "../../taskpane/open/morning-open";
import type { DueRecord } from "../../taskpane/open/due-record";
import type { OpenCell } from "../../taskpane/open/open-cell";

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** A workbook of `companies` rows on two sheets; "Comps" holds the first half, "Model" the rest. */
function workbook(companies: number): OpenCell[] {
  return Array.from({ length: companies }, (_, i) => ({
    sheet: i < companies / 2 ? "Comps" : "Model",
    address: `B${i + 2}`,
    formula: `=KAISHA.FINANCIAL(${1300 + i},"sales")`,
  }));
}

interface World {
  host: OpenHost;
  revalidator: Revalidator;
  /** addresses recalculated, each batch in order. */
  batches: string[][];
  /** requests "sent" by the background (one per refresh). */
  sent: string[];
  /** the cells answer: a call counts as the functions count them (cell-errors.ts). */
  answer(n: number): void;
}

/**
 * A host over a real revalidator: each recalculated cell answers from its stored answer, which is
 * due (a company whose data can have changed), and queues its company's check; `changed` says
 * which companies' answers come back different.
 */
function world(
  cells: OpenCell[],
  options: { active?: string; changed?: (code: string) => boolean } = {},
): World {
  const revalidator = new Revalidator({ now: () => Date.now(), intervalMs: () => 1_000 });
  const batches: string[][] = [];
  const sent: string[] = [];
  let answered = 0;
  const code = (address: string) =>
    /KAISHA\.FINANCIAL\((\d+)/.exec(
      cells.find((c) => `'${c.sheet}'!${c.address}` === address)?.formula ?? "",
    )?.[1] ?? "";
  const task = (company: string): RevalidationTask => ({
    key: `financials|${company}`,
    company,
    filing: false,
    rank: 0,
    refresh: async () => {
      // The pacer's second between requests (60 a minute).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      sent.push(company);
      return options.changed?.(company) ?? false;
    },
    touch: async () => undefined,
  });
  const host: OpenHost = {
    scanCells: async () => cells,
    activeSheet: async () => options.active,
    recalculate: async (addresses) => {
      batches.push([...addresses]);
      for (const a of addresses) {
        answered += 1;
        revalidator.schedule(task(code(a)), a, true);
      }
      return addresses.length;
    },
    client: () => ({
      revalidation: () => revalidator,
      stats: () => ({ requestsSent: sent.length }),
    }),
    cellsAnswered: () => answered,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  return { host, revalidator, batches, sent, answer: (n) => (answered += n) };
}

test("Windows/Mac: no cell was called at open, so every KAISHA cell is recalculated, the sheet on screen first", async () => {
  const w = world(workbook(10), { active: "Model" });
  const run = openWorkbook(w.host, { batch: 4 });
  await jest.advanceTimersByTimeAsync(10_000);
  const r = await run;
  expect(r.calledBy).toBe("recalculated");
  expect(r.cells).toBe(10);
  expect(r.recalculated).toBe(10);
  // Model (B7:B11) before Comps (B2:B6), in batches of 4.
  expect(w.batches.map((b) => b.length)).toEqual([4, 4, 2]);
  expect(w.batches.flat().slice(0, 5)).toEqual([
    "'Model'!B7",
    "'Model'!B8",
    "'Model'!B9",
    "'Model'!B10",
    "'Model'!B11",
  ]);
  expect(new Set(w.batches.flat()).size).toBe(10);
});

test("the web: the host called every cell at load, so the open recalculates nothing and asks nothing twice", async () => {
  const w = world(workbook(10));
  const run = openWorkbook(w.host);
  // Excel on the web calls the cells while the open waits for them to come in.
  w.answer(6);
  await jest.advanceTimersByTimeAsync(1_000);
  w.answer(4);
  await jest.advanceTimersByTimeAsync(10_000);
  const r = await run;
  expect(r.calledBy).toBe("host");
  expect(r.recalculated).toBe(0);
  expect(w.batches).toEqual([]);
  expect(w.sent).toEqual([]);
});

test("a desktop workbook opened without its startup behaviour: cells answered and marked, nothing sent until Update", async () => {
  const w = world(workbook(6), { changed: (c) => c === "1301" || c === "1304" });
  const recalculated: string[] = [];
  w.revalidator.onRecalculate((a) => recalculated.push(...a));
  const run = openWorkbook(w.host, { mode: "offer" });
  await jest.advanceTimersByTimeAsync(10_000);
  const r = await run;
  // Its cost shown before it runs: 6 companies, 6 requests, 6 s at the pacer's pace.
  expect(r.due).toMatchObject({ companies: 6, requests: 6, estimatedMs: 6_000 });
  expect(w.sent).toEqual([]);
  expect(r.update).toBeDefined();
  r.update?.();
  await jest.advanceTimersByTimeAsync(10_000);
  expect(w.sent.sort()).toEqual(["1300", "1301", "1302", "1303", "1304", "1305"]);
  // Every cell was shown marked, so each one is recalculated to show its answer or drop the mark.
  expect(new Set(recalculated).size).toBe(6);
});

test("a workbook without KAISHA cells: nothing recalculated, nothing held", async () => {
  const w = world([]);
  const r = await openWorkbook(w.host, { mode: "offer" });
  expect(r).toMatchObject({ cells: 0, calledBy: "none", recalculated: 0 });
  expect(r.update).toBeUndefined();
  expect(w.revalidator.status().paused).toBeUndefined();
});

test("Update recalculates every cell even on a host that called them at load", async () => {
  const w = world(workbook(4));
  w.answer(4);
  const run = openWorkbook(w.host, { mode: "offer", always: true });
  await jest.advanceTimersByTimeAsync(10_000);
  const r = await run;
  expect(r.recalculated).toBe(4);
  expect(r.due.requests).toBe(4);
  expect(w.sent).toEqual([]);
});

test("a scan that fails (no Excel) is an open with no cells, never an exception", async () => {
  const w = world(workbook(2));
  w.host.scanCells = () => Promise.reject(new Error("no Excel"));
  await expect(openWorkbook(w.host)).resolves.toMatchObject({ cells: 0, calledBy: "none" });
});

test("the pane's report: companies updated, cells recalculated and requests, as the queue did them", async () => {
  const w = world(workbook(8), { changed: (c) => c === "1302" });
  const cells = workbook(8);
  const progress = followOpen(w.host.client(), (a) => {
    const cell = cells.find((c) => `'${c.sheet}'!${c.address}` === a);
    return cell === undefined ? undefined : companyOf(cell);
  });
  const run = openWorkbook(w.host);
  await jest.advanceTimersByTimeAsync(20_000);
  await run;
  const r = progress.report();
  expect(r.requests).toBe(w.sent.length);
  expect(r.requests).toBe(8);
  // Every cell was shown marked: each is recalculated (its answer, or the mark dropped).
  expect(r.companies).toBe(8);
  expect(r.cells).toBe(8);
  expect(r.due.companies).toBe(0);
  progress.stop();
});

test("a cell's company: a code as written, or the cell its formula refers to", () => {
  const at = (formula: string) => companyOf({ sheet: "Model", address: "C2", formula });
  expect(at('=KAISHA.FINANCIAL("7203","sales")')).toBe("7203");
  expect(at("=KAISHA.PRICE(7203)")).toBe("7203");
  expect(at('=KAISHA.FINANCIAL($A2,"sales","FY-1")')).toBe("Model!A2");
  expect(at("=KAISHA.FIELDS()")).toBeUndefined();
});

describe("with the workbook's due record (taskpane/open/due-record.ts)", () => {
  const NOW = Date.parse("2026-11-21T00:00:00Z");
  /** 1300..1309 fresh for an hour, except 1302 and 1307 (a close, a filing window since). */
  const record: DueRecord = {
    v: 1,
    due: Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [
        `${1300 + i}|getFinancials`,
        i === 2 || i === 7 ? NOW - 1 : NOW + 3_600_000,
      ]),
    ),
  };

  test("Windows/Mac: only the cells whose data can have changed are recalculated, the sheet on screen first; the rest keep their saved values", async () => {
    const cells = workbook(10);
    // A cell saved showing an error (a failed fetch): recalculated though its company is fresh.
    cells[4] = { ...(cells[4] as OpenCell), value: "#N/A" };
    const w = world(cells, { active: "Model" });
    w.host.dueRecord = () => Promise.resolve(record);
    w.host.now = () => NOW;
    const run = openWorkbook(w.host);
    await jest.advanceTimersByTimeAsync(10_000);
    const r = await run;
    expect(r.calledBy).toBe("recalculated");
    expect(r.cells).toBe(10);
    expect(r.recalculated).toBe(3);
    expect(r.kept).toBe(7);
    // Model's 1307 (B9) first, then Comps' 1302 (B4) and the error (B6).
    expect(w.batches.flat()).toEqual(["'Model'!B9", "'Comps'!B4", "'Comps'!B6"]);
    expect(r.dueRecord).toBe(record);
    expect(r.keptGroups.has("1300|getFinancials")).toBe(true);
    expect(r.keptGroups.has("1302|getFinancials")).toBe(false);
    // Only the recalculated cells' companies go to the background: nothing asked for the rest.
    expect(w.sent.sort()).toEqual(["1302", "1304", "1307"]);
  });

  test("a company named by a cell: the open reads that cell; one it cannot read is recalculated", async () => {
    const cells: OpenCell[] = [
      { sheet: "Model", address: "B2", formula: '=KAISHA.FINANCIAL($A2,"sales")', value: 1 },
      { sheet: "Model", address: "B3", formula: '=KAISHA.FINANCIAL($A3,"sales")', value: 1 },
    ];
    const w = world(cells);
    const asked: string[][] = [];
    w.host.dueRecord = () => Promise.resolve(record);
    w.host.now = () => NOW;
    w.host.values = (refs) => {
      asked.push([...refs]);
      return Promise.resolve(new Map([["Model!A2", 1300]]));
    };
    const run = openWorkbook(w.host);
    await jest.advanceTimersByTimeAsync(10_000);
    const r = await run;
    expect(asked).toEqual([["Model!A2", "Model!A3"]]);
    expect(w.batches.flat()).toEqual(["'Model'!B3"]);
    expect(r.kept).toBe(1);
  });

  test("the web: the host called every cell, so the record is not read and nothing is recalculated", async () => {
    const w = world(workbook(4));
    const read = jest.fn(() => Promise.resolve(record));
    w.host.dueRecord = read;
    const run = openWorkbook(w.host);
    w.answer(4);
    await jest.advanceTimersByTimeAsync(10_000);
    const r = await run;
    expect(r.calledBy).toBe("host");
    expect(w.batches).toEqual([]);
    expect(read).not.toHaveBeenCalled();
  });

  test("Update recalculates every cell whatever the record says", async () => {
    const w = world(workbook(4));
    w.host.dueRecord = () => Promise.resolve(record);
    w.host.now = () => NOW;
    const run = openWorkbook(w.host, { always: true });
    await jest.advanceTimersByTimeAsync(10_000);
    const r = await run;
    expect(r.recalculated).toBe(4);
    expect(r.kept).toBe(0);
  });
});
