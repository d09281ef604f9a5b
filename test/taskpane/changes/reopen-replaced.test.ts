// After a reopen the answers are on this computer's disk, not yet in memory: an answer the
// morning replaces is still told apart from the one it replaced (read from disk), so its cells are
// grouped by the new period or 訂正 that brought them, not as a plain "changed".
import { companyMoves } from "../../../taskpane/changes/answer-changes";
import {
  forgetReplaced,
  replacedSince,
  unwatchAnswers,
  watchAnswers,
} from "../../../taskpane/changes/answer-watch";

type Entry = { body: unknown; storedAt: number; bytes: number };

/** A memory tier (peek) in front of a disk (get reads through), as functions/addin-cache.ts builds. */
function reopenedStore(disk: Map<string, Entry>) {
  const memory = new Map<string, Entry>();
  return {
    memory,
    diskReads: 0,
    async get(k: string) {
      const hot = memory.get(k);
      if (hot !== undefined) return hot;
      this.diskReads += 1;
      const cold = disk.get(k);
      if (cold !== undefined) memory.set(k, cold);
      return cold;
    },
    set: async (k: string, e: Entry) => {
      memory.set(k, e);
      disk.set(k, e);
    },
    delete: async (k: string) => void (memory.delete(k), disk.delete(k)),
    clear: async () => (memory.clear(), disk.clear()),
    keys: async () => [...new Set([...memory.keys(), ...disk.keys()])],
    peek: (k: string) => memory.get(k),
  };
}

const QUARTERLY = "p1/financials?period=quarterly&security_code=7203&years=30";
const ANNUAL = "p1/financials?period=annual&security_code=4452&years=30";
const rows = (...periods: { fiscal_year: string; quarter?: string; sales: number }[]) => ({
  periods,
});

afterEach(() => {
  unwatchAnswers();
  forgetReplaced();
});

test("a disk-only answer replaced that morning: its new quarter and its restated year are told, each read from disk once", async () => {
  const disk = new Map<string, Entry>([
    [
      QUARTERLY,
      { body: rows({ fiscal_year: "2027/03", quarter: "Q1", sales: 10 }), storedAt: 0, bytes: 1 },
    ],
    [ANNUAL, { body: rows({ fiscal_year: "2025/12", sales: 100 }), storedAt: 0, bytes: 1 }],
  ]);
  const store = reopenedStore(disk);
  watchAnswers(store, () => 5);
  await new Promise((resolve) => setImmediate(resolve));
  await store.set(QUARTERLY, {
    body: rows(
      { fiscal_year: "2027/03", quarter: "Q1", sales: 10 },
      { fiscal_year: "2027/03", quarter: "Q2", sales: 12 },
    ),
    storedAt: 5,
    bytes: 1,
  });
  await store.set(ANNUAL, {
    body: rows({ fiscal_year: "2025/12", sales: 99 }),
    storedAt: 5,
    bytes: 1,
  });
  // A request never stored before reads nothing from disk.
  await store.set("p1/financials?period=annual&security_code=6758&years=30", {
    body: rows({ fiscal_year: "2026/03", sales: 1 }),
    storedAt: 5,
    bytes: 1,
  });
  const moves = companyMoves(replacedSince(0));
  expect(moves.get("7203")?.newPeriods).toEqual(["2027/03 Q2"]);
  expect(moves.get("4452")?.restated).toEqual([{ period: "2025/12", items: ["sales"] }]);
  expect(moves.get("6758")).toBeUndefined();
  expect(store.diskReads).toBe(2);
});
