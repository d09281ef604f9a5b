// Model N in headless Chromium: the built bundle's own functions over real IndexedDB, the answers the
// Node run stored seeded into it; reopen wall time, warm time per cell and heap.

import { CACHE_DB_NAME, fingerprint } from "../src/client";
import { readFileSync, writeFileSync } from "node:fs";
import { deserialize } from "node:v8";
import type { CDPSession, Page } from "playwright-core";
import { DEMO_API_KEY } from "../sandbox/demo-key";
import { startHarness, type Harness } from "../test/e2e/harness";
import type { ScaleCell } from "./scale-cells";
import type { FailureCount } from "./failure-tally";

/** What the Chromium run measured. */
export interface BrowserMeasure {
  /**
   * From the navigation that opens the page (a new runtime: its code loaded, IndexedDB opened, the
   * start-up bulk load) to the last cell's value, cells started 1,000 a task as soon as the
   * functions are registered; the bench's own loading of the cell list into the page is taken out.
   * @unit s
   */
  reopenWallSeconds: number;
  /** The bench loading its cell list into the page (taken out of reopenWallSeconds). @unit s */
  cellListSeconds: number;
  /** Median of three warm recalculations, wall time in the page per cell (one thread). @unit µs */
  warmMicrosPerCell: number;
  warmMicros: number[];
  /**
   * Peak JS heap during the reopen (from navigation) less a blank page's heap with the bench's
   * cell list alone (after a GC): the runtime's code, the answers and the cells' work. @unit MB
   */
  reopenHeapGrowthMB: number;
  /**
   * The page's main-thread task time over the reopen (CDP Performance.getMetrics TaskDuration, from
   * navigation to the last value): CPU against the floor's CPU is steadier than wall under load. @unit s
   */
  reopenCpuSeconds: number | undefined;
  /**
   * The floor taken in Chromium itself, after the reopen in a page of its own: every stored
   * record read (one IndexedDB transaction), gunzipped (DecompressionStream) and parsed (TextDecoder,
   * JSON.parse per line), one after another; what the engine's own read, inflate and parse cost
   * beside the Node floor the ratio is against.
   */
  pageFloor: PageFloor;
  values: number;
  /** The reopen's cells without a value, by message (an error value or a rejection). */
  failures: FailureCount[];
  cells: number;
  /** Requests the page sent to the sandbox (the clock is the stored answers' day: none expected). */
  requests: number;
}

/** The floor in the page (`pageFloor`) and its parts, one after another. @unit s */
interface PageFloor {
  seconds: number;
  readSeconds: number;
  gunzipSeconds: number;
  parseSeconds: number;
}

/** Records seeded into IndexedDB per evaluate call. */
const SEED_CHUNK = 100;

/** The storage file bench/storage-standin.ts `save` wrote: records (V8-serialized) and index rows. */
interface Saved {
  records: [string, Uint8Array][];
  rows: [string, [number, number, number]][];
}

/** Uint8Arrays (the gzip stored form) travel as base64 to the page, which rebuilds them. */
function portable(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $b64: Buffer.from(value).toString("base64") };
  if (Array.isArray(value)) return value.map(portable);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, portable(v)]));
  return value;
}

/**
 * Writes the stored answers into the page origin's IndexedDB (CACHE_DB_NAME, as
 * src/client/idb-backend.ts lays it out), their keys moved to the page's partition (the
 * fingerprint of the same key at the harness's sandbox URL, src/client/key-partition.ts).
 */
async function seed(page: Page, saved: Saved, fromUrl: string, toUrl: string): Promise<void> {
  const from = fingerprint(DEMO_API_KEY, fromUrl);
  const to = fingerprint(DEMO_API_KEY, toUrl);
  const rows = new Map(saved.rows);
  for (let start = 0; start < saved.records.length; start += SEED_CHUNK) {
    const chunk = saved.records.slice(start, start + SEED_CHUNK).map(([key, bytes]) => ({
      key: key.split(from).join(to),
      row: rows.get(key),
      record: portable(deserialize(bytes)),
    }));
    await page.evaluate(
      async ({ items, dbName }) => {
        const restore = (v: unknown): unknown => {
          if (Array.isArray(v)) return v.map(restore);
          if (v !== null && typeof v === "object") {
            const b64 = (v as { $b64?: unknown }).$b64;
            if (typeof b64 === "string") return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, restore(x)]));
          }
          return v;
        };
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(dbName, 1);
          open.onupgradeneeded = () => {
            for (const name of ["records", "index"])
              if (!open.result.objectStoreNames.contains(name)) open.result.createObjectStore(name);
          };
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        const tx = db.transaction(["records", "index"], "readwrite");
        for (const item of items) {
          tx.objectStore("records").put(restore(item.record), item.key);
          tx.objectStore("index").put(item.row, item.key);
        }
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      { items: chunk, dbName: CACHE_DB_NAME },
    );
  }
}

/** The path the bench serves its cell list at (page.route), for the reopened page to load. */
const CELLS_PATH = "/__bench/cells.json";
/** An empty page of the same origin (page.route), where the cell list's own costs are measured. */
const BLANK_PATH = "/__bench/blank.html";

/** The cell list as JSON, served to the page (function name, arguments, address per cell). */
function cellsJson(cells: readonly ScaleCell[]): string {
  return JSON.stringify(cells.map((c) => [...c.formula(), c.address]));
}

/** What the reopened page counted (reopenOnRegistration): values, and failures by message. */
interface PageReopen {
  values: number;
  failures: FailureCount[];
}

/**
 * Runs in the reopened page before its own scripts (an init script): loads the cell list
 * (synchronously: it is the bench's, not the add-in's, and its time is measured apart), then as
 * soon as the functions are registered (functions.js evaluated; its start-up has begun the bulk
 * load) recalculates every cell as `recalculateInPage` does, and leaves the outcome in
 * `window.benchReopen`: the cells with a value, and those without counted by message (as
 * bench/failure-tally.ts does in Node). Self-contained: Playwright sends its source to the page.
 */
function reopenOnRegistration(path: string): void {
  const w = window as unknown as {
    benchCells: [string, unknown[], string][];
    benchReopen: Promise<PageReopen>;
    CustomFunctions?: {
      registry?: Map<string, (...a: unknown[]) => unknown>;
      Error: new () => object;
    };
  };
  const xhr = new XMLHttpRequest();
  xhr.open("GET", path, false);
  xhr.send();
  w.benchCells = JSON.parse(xhr.responseText) as [string, unknown[], string][];
  w.benchReopen = new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const turn = () =>
      new Promise<void>((done) => {
        channel.port1.onmessage = () => done();
        channel.port2.postMessage(0);
      });
    const run = async () => {
      const registry = w.CustomFunctions?.registry;
      if (registry === undefined || registry.size === 0) {
        setTimeout(() => void run().catch(reject), 1);
        return;
      }
      const find = (name: string) =>
        registry.get(name) ?? registry.get(`KAISHA.${name}`) ?? registry.get(name.toUpperCase());
      const cells = w.benchCells;
      let values = 0;
      const Err = w.CustomFunctions?.Error;
      const failures = new Map<string, FailureCount>();
      const failed = (message: string, address: string) => {
        const count = failures.get(message);
        if (count === undefined) failures.set(message, { message, cells: 1, addresses: [address] });
        else if ((count.cells += 1) <= 4) count.addresses.push(address);
      };
      // A cell error (the code and its message) or what a call rejected with.
      const messageOf = (e: unknown) => {
        const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
        if (typeof code === "string") return `${code} ${typeof message === "string" ? message : ""}`;
        return `thrown: ${typeof message === "string" ? message : String(e)}`;
      };
      const settle = (v: unknown, address: string) => {
        if (Err === undefined || !(v instanceof Err)) values += 1;
        else failed(messageOf(v), address);
      };
      const pending: Promise<void>[] = [];
      for (let s = 0; s < cells.length; s += 1000) {
        if (s > 0) await turn();
        for (let i = s; i < Math.min(cells.length, s + 1000); i += 1) {
          const [name, args, address] = cells[i] as [string, unknown[], string];
          const fn = find(name);
          if (fn === undefined) throw new Error(`${name} is not registered`);
          const result = fn(...args, { address }) as { then?: unknown } | null;
          // A thenable is a result to come (a promise, or a waiting cell), as the runtime reads it.
          if (typeof result?.then === "function")
            pending.push(
              Promise.resolve(result).then(
                (v) => settle(v, address),
                (e: unknown) => failed(messageOf(e), address),
              ),
            );
          else settle(result, address);
        }
      }
      await Promise.all(pending);
      resolve({ values, failures: [...failures.values()] });
    };
    void run().catch(reject);
  });
}

/**
 * One recalculation in the page, as bench/scale-cells.ts recalculateScale does in Node: cells
 * started 1,000 per task (a MessageChannel turn: setTimeout would be clamped to 4 ms), each with
 * a new invocation object, all awaited; errors are CustomFunctions.Error values or throws.
 */
function recalculateInPage(page: Page): Promise<{ ms: number; values: number }> {
  return page.evaluate(async () => {
    const w = window as unknown as {
      benchCells: [string, unknown[], string][];
      CustomFunctions: {
        registry: Map<string, (...a: unknown[]) => unknown>;
        Error: new () => object;
      };
    };
    const registry = w.CustomFunctions.registry;
    const find = (name: string) =>
      registry.get(name) ?? registry.get(`KAISHA.${name}`) ?? registry.get(name.toUpperCase());
    const channel = new MessageChannel();
    const turn = () =>
      new Promise<void>((resolve) => {
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(0);
      });
    const cells = w.benchCells;
    let values = 0;
    const settle = (v: unknown) => {
      if (!(v instanceof w.CustomFunctions.Error)) values += 1;
    };
    const start = performance.now();
    const pending: Promise<void>[] = [];
    for (let s = 0; s < cells.length; s += 1000) {
      if (s > 0) await turn();
      for (let i = s; i < Math.min(cells.length, s + 1000); i += 1) {
        const [name, args, address] = cells[i] as [string, unknown[], string];
        const fn = find(name);
        if (fn === undefined) throw new Error(`${name} is not registered`);
        // A value is set at once, a thenable's when it settles (custom-functions-runtime.js
        // _invokeFunctionAndSetResult), as in bench/scale-cells.ts recalculateScale.
        const result = fn(...args, { address }) as { then?: unknown } | null;
        if (typeof result?.then === "function")
          pending.push(Promise.resolve(result).then(settle, () => undefined));
        else settle(result);
      }
    }
    await Promise.all(pending);
    return { ms: performance.now() - start, values };
  });
}

/**
 * Read, gunzip and parse of every stored answer in `page` (pageFloor). Self-contained: the
 * store and record layout are src/client/idb-backend.ts's, the stored form one JSON value per line
 * (src/client/stored-form.ts).
 */
function pageFloor(page: Page): Promise<PageFloor> {
  return page.evaluate(async (dbName) => {
    const started = performance.now();
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(dbName);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const records = await new Promise<{ body: Uint8Array<ArrayBuffer> }[]>((resolve, reject) => {
      const all = db.transaction("records").objectStore("records").getAll();
      all.onsuccess = () => resolve(all.result as { body: Uint8Array<ArrayBuffer> }[]);
      all.onerror = () => reject(all.error);
    });
    const read = performance.now() - started;
    const text = new TextDecoder();
    let values = 0;
    let gunzip = 0;
    let parse = 0;
    for (const { body } of records) {
      const t = performance.now();
      const stream = new DecompressionStream("gzip");
      const writer = stream.writable.getWriter();
      writer.write(body).catch(() => undefined);
      writer.close().catch(() => undefined);
      const reader = stream.readable.getReader();
      const chunks: Uint8Array[] = [];
      let length = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        length += value.byteLength;
      }
      const bytes = new Uint8Array(length);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.byteLength;
      }
      const inflated = performance.now();
      gunzip += inflated - t;
      for (const line of text.decode(bytes).split("\n"))
        if (JSON.parse(line) !== undefined) values += 1;
      parse += performance.now() - inflated;
    }
    db.close();
    if (values < records.length) throw new Error("stored answers did not parse");
    return {
      seconds: (performance.now() - started) / 1000,
      readSeconds: read / 1000,
      gunzipSeconds: gunzip / 1000,
      parseSeconds: parse / 1000,
    };
  }, CACHE_DB_NAME);
}

/** How long a recalculation in the page may take before the run is reported as not settled. */
const SETTLE_LIMIT_MS = 5 * 60_000;

/**
 * `recalculateInPage` bounded: the page's clock is fixed, so a cell that has to ask the sandbox
 * (an answer the seeding did not bring) may wait on the pacer for ever; the run then fails with
 * how many requests the page sent instead of hanging the bench.
 */
async function settledRecalculation<R>(run: () => Promise<R>, requests: () => number): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `Chromium recalculation did not settle in ${SETTLE_LIMIT_MS / 60_000} min (${requests()} requests sent: answers missing from the seeded IndexedDB?)`,
          ),
        ),
      SETTLE_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([run(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** The page's main-thread task time so far (CDP Performance domain, enabled). @unit s */
async function taskSeconds(cdp: CDPSession): Promise<number | undefined> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as {
    metrics: { name: string; value: number }[];
  };
  return metrics.find((m) => m.name === "TaskDuration")?.value;
}

async function heapUsed(cdp: CDPSession): Promise<number> {
  const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  return usedSize;
}

/** Opens the preview page (the bundle with the CustomFunctions stand-in) on the stored answers' day. */
async function openRuntime(h: Harness, nowMs: number): Promise<Page> {
  const page = await h.context.newPage();
  await page.clock.setFixedTime(new Date(nowMs));
  await page.goto(previewUrl(h));
  await page.waitForSelector('[data-testid="preview-root"][data-ready="true"]', {
    timeout: 120_000,
  });
  return page;
}

/** The previewed page's address (the bundle with the CustomFunctions stand-in). */
function previewUrl(h: Harness): string {
  const search = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
  return `${h.server.url}/preview.html?${search}`;
}

/**
 * The bench's own costs in a blank page of the same origin: loading and parsing the cell list
 * (taken out of the reopen's time) and the heap it takes (out of the reopen's heap growth).
 */
async function cellListCosts(h: Harness, cdp: CDPSession, page: Page) {
  await page.goto(`${h.server.url}${BLANK_PATH}`);
  await cdp.send("HeapProfiler.collectGarbage");
  const blank = await heapUsed(cdp);
  const started = performance.now();
  await page.evaluate((path) => {
    const xhr = new XMLHttpRequest();
    xhr.open("GET", path, false);
    xhr.send();
    (window as unknown as { benchCells: unknown }).benchCells = JSON.parse(xhr.responseText);
  }, CELLS_PATH);
  const ms = performance.now() - started;
  await cdp.send("HeapProfiler.collectGarbage");
  return { ms, blank, heap: (await heapUsed(cdp)) - blank };
}

/**
 * The Chromium run over `storagePath` (what the Node run stored under `fromUrl`): the answers are
 * seeded into IndexedDB from one page, then a new page (a new runtime) is the reopen, measured
 * from its navigation until the last cell's value, followed by three warm recalculations.
 */
export async function browserRun(
  cells: readonly ScaleCell[],
  storagePath: string,
  fromUrl: string,
  nowMs: number,
): Promise<BrowserMeasure> {
  const h = await startHarness();
  try {
    const saved = deserialize(readFileSync(storagePath)) as Saved;
    const seeder = await openRuntime(h, nowMs);
    await seed(seeder, saved, fromUrl, h.sandbox.url);
    await seeder.close();
    const requestsBefore = h.sandbox.sandbox.requestLog.length;
    // The cell list, served to the pages from the bench (the sheet's formulas are Excel's, not
    // the runtime's: loading them is no part of a reopen).
    const list = cellsJson(cells);
    await h.context.route(`**${CELLS_PATH}`, (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: list }),
    );
    await h.context.route(`**${BLANK_PATH}`, (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><title>blank</title>",
      }),
    );
    const costs = await (async () => {
      const blankPage = await h.context.newPage();
      const blankCdp = await h.context.newCDPSession(blankPage);
      try {
        return await cellListCosts(h, blankCdp, blankPage);
      } finally {
        await blankPage.close();
      }
    })();

    // The reopen: a new page (a new runtime) timed from its navigation, its cells recalculated as
    // soon as the functions are registered (reopenOnRegistration, before the page's own scripts).
    const page = await h.context.newPage();
    await page.clock.setFixedTime(new Date(nowMs));
    await page.addInitScript(reopenOnRegistration, CELLS_PATH);
    const cdp = await h.context.newCDPSession(page);
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await heapUsed(cdp).catch(() => peak));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const sent = () => h.sandbox.sandbox.requestLog.length - requestsBefore;
    // BROWSER_CPU_PROF=<file>: the reopen's CPU profile (open it in DevTools' Performance panel).
    const profileTo = process.env["BROWSER_CPU_PROF"];
    if (profileTo !== undefined && profileTo !== "") {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    await cdp.send("Performance.enable");
    const tasksBefore = await taskSeconds(cdp);
    const started = performance.now();
    const reopen = await settledRecalculation(async () => {
      await page.goto(previewUrl(h));
      return page.evaluate(
        () => (window as unknown as { benchReopen: Promise<PageReopen> }).benchReopen,
      );
    }, sent);
    const reopenWallMs = performance.now() - started - costs.ms;
    const tasksAfter = await taskSeconds(cdp);
    if (profileTo !== undefined && profileTo !== "") {
      const { profile } = (await cdp.send("Profiler.stop")) as { profile: unknown };
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    sampling = false;
    await sampler;
    peak = Math.max(peak, await heapUsed(cdp));
    await page.waitForSelector('[data-testid="preview-root"][data-ready="true"]', {
      timeout: 120_000,
    });
    const warmMicros: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const t = performance.now();
      const warm = await settledRecalculation(() => recalculateInPage(page), sent);
      // The page's clock is fixed (setFixedTime): its own timer may not move; the Node side's does.
      const ms = warm.ms > 0 ? warm.ms : performance.now() - t;
      warmMicros.push((ms * 1000) / cells.length);
    }
    const sorted = [...warmMicros].sort((a, b) => a - b);
    await page.close();
    const floorPage = await h.context.newPage();
    await floorPage.goto(`${h.server.url}${BLANK_PATH}`);
    const floor = await pageFloor(floorPage);
    return {
      reopenWallSeconds: reopenWallMs / 1000,
      cellListSeconds: costs.ms / 1000,
      warmMicrosPerCell: sorted[1] ?? 0,
      warmMicros,
      reopenHeapGrowthMB: (peak - costs.blank - costs.heap) / 1048576,
      pageFloor: floor,
      reopenCpuSeconds:
        tasksBefore === undefined || tasksAfter === undefined
          ? undefined
          : tasksAfter - tasksBefore - costs.ms / 1000,
      values: reopen.values,
      failures: reopen.failures,
      cells: cells.length,
      requests: h.sandbox.sandbox.requestLog.length - requestsBefore,
    };
  } finally {
    await h.close();
  }
}
