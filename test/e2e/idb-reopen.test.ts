// The persistent cache on IndexedDB in real Chromium: a reopened page (a new runtime) reads its
// answers back from IndexedDB and shows the same values without sending a request.
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness";
import { storedAnswers } from "./stored-answers";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

async function openPreview(): Promise<Page> {
  const search = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
  const page = await h.openPage(`/preview.html?${search}`);
  await page.waitForSelector('[data-testid="preview-root"][data-ready="true"]');
  return page;
}

async function enter(page: Page, address: string, formula: string): Promise<void> {
  await page.fill('[data-testid="preview-address"]', address);
  await page.fill('[data-testid="preview-formula-input"]', formula);
  await page.press('[data-testid="preview-formula-input"]', "Enter");
}

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('td[data-kind="busy"]') === null);
}

async function text(page: Page, address: string): Promise<string> {
  return (await page.locator(`[data-testid="preview-cell-${address}"]`).textContent()) ?? "";
}

function sandboxRequests(): number {
  return h.sandbox.sandbox.requestLog.filter((e) => e.path.startsWith("/v1/")).length;
}

describe("persistent cache on IndexedDB", () => {
  test("a reopened page shows the same values from IndexedDB and sends no request", async () => {
    const first = await openPreview();
    await enter(first, "A1", '=KAISHA.FINANCIAL(7203,"sales",0)');
    await enter(first, "A2", '=KAISHA.VALUATION(7203,"per",3,0)');
    await settled(first);
    const sales = await text(first, "A1");
    const per = await text(first, "A2");
    expect(sales).toMatch(/^-?[\d,]+$/);
    expect(per).not.toMatch(/^#/);
    const sent = sandboxRequests();
    expect(sent).toBeGreaterThanOrEqual(2);
    // Index writes are batched (a quarter second): wait until both answers are in the database.
    for (let i = 0; i < 100 && (await storedAnswers(first)) < 2; i += 1)
      await first.waitForTimeout(100);
    expect(await storedAnswers(first)).toBeGreaterThanOrEqual(2);
    await first.close();

    const reopened = await openPreview();
    expect(await storedAnswers(reopened)).toBeGreaterThanOrEqual(2);
    await enter(reopened, "A1", '=KAISHA.FINANCIAL(7203,"sales",0)');
    await enter(reopened, "A2", '=KAISHA.VALUATION(7203,"per",3,0)');
    await settled(reopened);
    expect(await text(reopened, "A1")).toBe(sales);
    expect(await text(reopened, "A2")).toBe(per);
    expect(sandboxRequests()).toBe(sent);
    await h.screenshot(reopened, "idb-reopen-01-values-from-indexeddb");
    await reopened.close();
  });

  test("the database of an earlier stored form is deleted when the add-in starts", async () => {
    const first = await openPreview();
    // What a 0.1.0 preview left on disk: its stores under the unversioned name, with a record.
    await first.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open("kaisha-cache", 1);
          open.onupgradeneeded = () => {
            open.result.createObjectStore("records");
            open.result.createObjectStore("index");
          };
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(["records", "index"], "readwrite");
            tx.objectStore("records").put({ body: { $kaishaColumns: [], rows: [] } }, "old");
            tx.objectStore("index").put([100, 1, 1], "old");
            tx.oncomplete = () => {
              db.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
    );
    await first.close();

    const reopened = await openPreview();
    const names = () =>
      reopened.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort());
    // The delete is best effort and not awaited by start-up: wait (bounded) until it lands.
    for (let i = 0; i < 50 && (await names()).includes("kaisha-cache"); i += 1)
      await reopened.waitForTimeout(100);
    expect(await names()).toEqual(["kaisha-cache-v3"]);
    await reopened.close();
  });

  test("the pane's usage panel says answers are saved on this computer", async () => {
    const page = await h.openPage("/taskpane.html?lang=en", { excel: true });
    await page.waitForSelector('[data-testid="app-root"][data-ready="true"]');
    await page.click('[data-testid="nav-refresh"]');
    // "opening" until IndexedDB has opened; the panel re-reads the state with its 2 s stats poll.
    const storage = page.locator('[data-testid="usage-storage"][data-kind="disk"]');
    await storage.waitFor();
    expect(await storage.textContent()).toBe(
      "On this computer: a reopened workbook reuses them without requests.",
    );
    await page.close();
  });
});
