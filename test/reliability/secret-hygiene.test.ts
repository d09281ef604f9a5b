// Secret hygiene: across a full run (every function, errors, retries, faults, a rejected key) the API
// key never shows in console output, error messages, URLs, the request log, the cache or cell values.
import { inProcessFetch, type RequestableApp } from "../../bench/in-process-fetch";
import * as KAISHA from "../../functions/index";
import { createApp } from "../../sandbox/app";
import {
  createClient,
  type KaishaClient,
  gunzipBytes,
  decodeUtf8,
  openIdbBackend,
  PersistentCacheStore,
} from "../../src/client";
import { IDBFactory } from "fake-indexeddb";
import { setClientForTesting } from "../../src/session";
import { defaultParams, fetchDatasetTable, IMPORT_DATASETS } from "../../taskpane/state/datasets";
import { BASE_URL } from "./support/harness";

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(60_000);

/**
 * Key-shaped (openapi.json bearerAuth: 52 characters, a 9-character prefix ending in `key_`), not
 * the demo key.
 */
const KEY = "hygiekey_Q7xTzP3mVb9LwR2nC5sK8dF1gH4jY6uA0eN3oI7pZ2x";
/** A second, rejected key: it must not leak either. */
const WRONG_KEY = "hygiekey_WrongWrongWrongWrongWrongWrongWrongWrongWro";
/** Long enough pieces that a partial leak (key cut or re-encoded) is caught too. */
const NEEDLES = [
  KEY,
  WRONG_KEY,
  KEY.slice(9),
  WRONG_KEY.slice(9),
  KEY.slice(20, 44),
  encodeURIComponent(KEY),
];

type Fn = (...args: unknown[]) => Promise<unknown>;
const fn = (name: string): Fn => (KAISHA as unknown as Record<string, Fn>)[name] as Fn;

/** Calls of every function: valid ones, invalid ones, and ones that reach 404s. */
const CALLS: [string, unknown[]][] = [
  ["FINANCIALS", ["7203", [["*"]], "quarterly", 3, null, "million_jpy", "periods_down", 2]],
  ["FINANCIALS", ["E99999", null, null, null, null, null, null, 1]],
  ["FINANCIAL", ["7203", "sales", -1, null, null, null]],
  ["FINANCIAL", ["7203", "net_income", 0, "LTM", null, null]],
  ["FINANCIAL", [KEY, "sales", 0, null, null, null]],
  ["VALUATION", ["7203", [["per_5y_avg"]], null, null]],
  ["VALUATION", ["130A", null, 5, 2]],
  ["PRICES", ["7203", "2026-09-01", "2026-11-19", null, "asc", 2]],
  ["PRICE", ["7203", "close", "2026-11-01"]],
  ["PRICE", ["9999", null, null]],
  ["RANKINGS", ["gainers", 5, 2]],
  ["SCREEN", [[["per:lt:30"]], "per", "asc", null, null, null, 150, null, 2]],
  ["SCREEN", [[["nonsense:xx:1"]], null, null, null, null, null, null, null, null]],
  ["SCREENFIELDS", [1]],
  ["FIELDS", ["financials", 1]],
  ["SECURITIES", [null, "Prime", null, 20, 2]],
  ["COMPANY", ["7203"]],
  ["SEGMENTS", ["7203", null, null, null, 2]],
  ["DIVIDENDS", ["7203", null, null, 2]],
  ["PEERS", ["7203", 5, 2]],
  ["DISCLOSURES", ["7203", null, null, null, 10, 2]],
  ["DOCUMENT", ["S1000001", "meta", 2]],
  ["XBRL", ["S1000001", "jppfs_cor:NetSales", null]],
  ["SECTION", ["S1000001", "mda"]],
  ["OFFICERS", ["7203", 2]],
  ["PERSON", ["100001", 2]],
  ["APPOINTMENTS", ["100001", 1]],
  ["COMPENSATION", ["100001", 1]],
  ["MARGIN", ["7203", "26w", 2]],
  ["JSFMARGIN", ["7203", "1m", null, null, "reverse", 2]],
  ["USAGE", []],
  ["ATTRIBUTION", [null]],
  ["ATTRIBUTION", ["prices"]],
];

function text(value: unknown): string {
  const seen = new WeakSet<object>();
  try {
    return (
      JSON.stringify(value, (_k, v: unknown) => {
        if (typeof v === "bigint") return v.toString();
        if (typeof v === "object" && v !== null) {
          if (seen.has(v)) return "[circular]";
          seen.add(v);
        }
        return v;
      }) ?? String(value)
    );
  } catch {
    return String(value);
  }
}

/** Everything about a thrown value a user or a log could see. */
function errorTexts(error: unknown): string[] {
  if (typeof error !== "object" || error === null) return [String(error)];
  const e = error as { message?: unknown; stack?: unknown; cause?: unknown; messageJa?: unknown };
  const out = [
    text(error),
    String(e.message),
    String(e.stack),
    String(e.messageJa),
    ...Object.keys(error),
  ];
  for (const k of Object.keys(error)) out.push(text((error as Record<string, unknown>)[k]));
  if (e.cause !== undefined && e.cause !== error) out.push(...errorTexts(e.cause));
  return out;
}

function leaks(haystack: string): string[] {
  return NEEDLES.filter((needle) => haystack.includes(needle));
}

describe("secret hygiene across a full run", () => {
  const consoleOutput: string[] = [];
  const spies: jest.SpyInstance[] = [];

  beforeAll(() => {
    for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
      spies.push(
        jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
          consoleOutput.push(
            args.map((a) => (a instanceof Error ? errorTexts(a).join(" ") : text(a))).join(" "),
          );
        }),
      );
    }
  });

  afterAll(() => {
    for (const spy of spies) spy.mockRestore();
    setClientForTesting(undefined);
  });

  it("the key never appears in console output, errors, URLs, the request log, the cache, cells or imported tables", async () => {
    const seen: string[] = [];
    const idb = new IDBFactory();
    const store = new PersistentCacheStore(openIdbBackend(idb));
    const healthy = createApp({ apiKeys: [KEY], ratePerMinute: 0 });
    const faulty = createApp({ apiKeys: [KEY], ratePerMinute: 0, faults: { rate: 0.5, seed: 3 } });
    const limited = createApp({ apiKeys: [KEY], ratePerMinute: 2 });
    const wire = inProcessFetch(healthy.app);
    const sleeps: number[] = [];
    const makeClient = (apiKey: string | undefined): KaishaClient =>
      createClient({
        baseUrl: BASE_URL,
        apiKey: () => apiKey,
        fetch: wire.fetch,
        ratePerMinute: 0,
        maxRetries: 2,
        cacheStore: store,
        lang: "en",
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      });

    const runAll = async (
      label: string,
      app: RequestableApp,
      apiKey: string | undefined,
      lang: "en" | "ja",
    ): Promise<void> => {
      wire.setApp(app);
      const client = makeClient(apiKey);
      setClientForTesting(client, { lang });
      for (const [name, args] of CALLS) {
        const invocation = {} as CustomFunctions.CancelableInvocation;
        try {
          seen.push(`${label} ${name} value ${text(await fn(name)(...args, invocation))}`);
        } catch (error) {
          seen.push(`${label} ${name} error`, ...errorTexts(error));
        }
      }
      // The client used directly, as the task pane does, with its own error paths.
      for (const call of [
        () => client.financials({ security_code: "7203", years: 99 }),
        () => client.prices({ code: "7203", limit: 5 }),
        () => client.usage(),
        () => client.person({ id: "0" }),
      ]) {
        try {
          seen.push(text(await call()));
        } catch (error) {
          seen.push(...errorTexts(error));
        }
      }
      // What the task pane imports into a workbook (taskpane/excel writes these tables).
      for (const dataset of IMPORT_DATASETS) {
        const values = {
          ...defaultParams(dataset),
          company: "7203",
          code: "7203",
          security_code: "7203",
        };
        try {
          seen.push(text(await fetchDatasetTable(dataset, values, { client, lang })));
        } catch (error) {
          seen.push(...errorTexts(error));
        }
      }
      seen.push(text(client.stats()));
    };

    await runAll("healthy", healthy.app, KEY, "en");
    await runAll("faults", faulty.app, KEY, "ja");
    await runAll("limited", limited.app, KEY, "en");
    await runAll("wrong key", healthy.app, WRONG_KEY, "en");
    await runAll("no key", healthy.app, undefined, "ja");

    // The run really exercised the paths it claims to.
    expect(wire.counters.requests).toBeGreaterThan(50);
    expect(faulty.requestLog.some((e) => e.status >= 500 || e.status === 0)).toBe(true);
    expect(limited.requestLog.some((e) => e.status === 429)).toBe(true);
    expect(healthy.requestLog.some((e) => e.status === 401)).toBe(true);
    expect(seen.join("\n")).toMatch(/API key not set/);
    // What a reopen finds in IndexedDB: every index row and record, as written.
    await store.flush();
    const disk = await openIdbBackend(idb);
    const rows = await disk.readIndex();
    expect(rows.length).toBeGreaterThan(0);

    const places: [string, string][] = [
      ["console output", consoleOutput.join("\n")],
      ["cell values and error messages", seen.join("\n")],
      ["requested URLs", wire.counters.urls.join("\n")],
      ["sandbox request logs", text([healthy.requestLog, faulty.requestLog, limited.requestLog])],
      // Records are gzip bytes: search what they decompress to.
      [
        "persistent cache",
        text(
          await Promise.all(
            rows.map(async (row) => {
              const record = await disk.readRecord(row.key);
              return [row, record && decodeUtf8(await gunzipBytes(record.body))];
            }),
          ),
        ),
      ],
    ];
    for (const [place, haystack] of places) {
      expect({ place, leaks: leaks(haystack) }).toEqual({ place, leaks: [] });
    }
  });
});
