// A cold model's queue: the sheet on screen first, companies by row, each company's requests together, nothing asked twice.

import { createApp } from "../../sandbox/app";
import { getDataset } from "../../sandbox/data";
import type { KaishaClient } from "../../src/client/client";
import { MemoryCacheStore } from "../../src/client/cache";
import { Pacer } from "../../src/client/pacer";
import { sandboxFetch, sandboxKaishaClient } from "./helpers";

/** Four distinct requests a company's row asks (one per column). */
const COLUMNS: readonly ((
  client: KaishaClient,
  code: string,
  address: string,
) => Promise<unknown>)[] = [
  (c, code, address) => c.valuations({ security_code: code }, sink(address)),
  (c, code, address) => c.prices({ code, from: "2026-10-01" }, sink(address)),
  (c, code, address) => c.peers({ security_code: code }, sink(address)),
  (c, code, address) => c.officers({ code }, sink(address)),
];

/** What functions/run.ts passes: the calling cell's address. */
function sink(address: string) {
  return { staleSink: { stale: false, address } };
}

function sandboxClient(ratePerMinute: number) {
  const sandbox = createApp({ ratePerMinute: 0 });
  const client = sandboxKaishaClient(sandboxFetch(sandbox), new MemoryCacheStore(), {
    ratePerMinute,
  });
  /** The company each request that reached the sandbox was for, in order. */
  const companies = () =>
    sandbox.requestLog.map((e) => {
      const m = /\/securities\/(\w+)\//.exec(e.path) ?? /security_code=(\w+)/.exec(e.query ?? "");
      return m?.[1] ?? "?";
    });
  const urls = () => sandbox.requestLog.map((e) => `${e.path}?${e.query ?? ""}`);
  return { client, companies, urls };
}

const CODES = getDataset()
  .securities.map((s) => s.code)
  .filter((code) => /^\d{4}$/.test(code))
  .slice(0, 50);

/**
 * 50 companies, one a row: 30 on "Comps" (the sheet on screen), 20 on "Other", their rows not in
 * the order Excel calculates them. Excel hands the cells column by column (every company's first
 * column, then every company's second): the order that spread each company over the whole build.
 * Returns each company's row order on its sheet.
 */
function queueModel(client: KaishaClient): {
  comps: string[];
  other: string[];
  calls: Promise<unknown>[];
} {
  const place = CODES.map((code, i) => {
    const sheet = i % 5 < 2 ? "Other" : "Comps";
    // A permutation of the rows: company i is not on row i.
    const row = ((i * 17) % 50) + 2;
    return { code, sheet, row };
  });
  const calls: Promise<unknown>[] = [];
  // The other sheet's cells first: Excel calculates sheets in its own order.
  for (const column of COLUMNS)
    for (const p of [...place].sort(
      (a, b) => (a.sheet === "Other" ? 0 : 1) - (b.sheet === "Other" ? 0 : 1),
    ))
      calls.push(column(client, p.code, `${p.sheet}!${"BCDE"[COLUMNS.indexOf(column)]}${p.row}`));
  const byRow = (sheet: string) =>
    place
      .filter((p) => p.sheet === sheet)
      .sort((a, b) => a.row - b.row)
      .map((p) => p.code);
  return { comps: byRow("Comps"), other: byRow("Other"), calls };
}

/** The companies in the order their last request was sent, and how many requests that took. */
function completions(sent: string[]): { code: string; after: number }[] {
  const last = new Map<string, number>();
  sent.forEach((code, i) => last.set(code, i + 1));
  return [...last].map(([code, after]) => ({ code, after })).sort((a, b) => a.after - b.after);
}

// The first test builds the sandbox's dataset in process: seconds on a loaded 2-core machine.
jest.setTimeout(30_000);

describe("a cold model's queue order", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("50 companies: the sheet on screen first, row by row, each company complete after its own requests; total = distinct requests", async () => {
    const { client, companies, urls } = sandboxClient(60);
    client.prioritize((address) => address.startsWith("Comps!"));
    const { comps, other, calls } = queueModel(client);
    await jest.advanceTimersByTimeAsync(6 * 61_000);
    await Promise.all(calls);
    const sent = companies();
    // Nothing more than the floor: 4 distinct requests a company, each asked once.
    expect(sent).toHaveLength(4 * CODES.length);
    expect(new Set(urls()).size).toBe(4 * CODES.length);
    // The first company (the sheet on screen's first row) is complete after its own 4 requests.
    expect(sent.slice(0, 4)).toEqual(Array(4).fill(comps[0]));
    // Each company's requests go together, the sheet on screen's companies in row order, then
    // the other sheet's in row order.
    const done = completions(sent);
    expect(done.map((d) => d.code)).toEqual([...comps, ...other]);
    expect(done.map((d) => d.after)).toEqual(done.map((_d, i) => 4 * (i + 1)));
  });

  test("the sheet activated next takes over the queue: its companies go before the rest still waiting", async () => {
    const { client, companies } = sandboxClient(60);
    client.prioritize((address) => address.startsWith("Comps!"));
    const { comps, other, calls } = queueModel(client);
    // A minute in: the first companies of Comps are done; the user turns to Other.
    await jest.advanceTimersByTimeAsync(30_000);
    const before = companies().length;
    client.prioritize((address) => address.startsWith("Other!"));
    await jest.advanceTimersByTimeAsync(6 * 61_000);
    await Promise.all(calls);
    const after = companies().slice(before);
    // The next requests are Other's companies, all of them, in row order, before Comps resumes.
    const firstOther = completions(after).filter((d) => other.includes(d.code));
    expect(firstOther.map((d) => d.code)).toEqual(other);
    // Other's 20 companies are complete within their own 80 requests plus the request of the
    // Comps company under way when the sheet changed.
    expect(firstOther[firstOther.length - 1]?.after).toBeLessThanOrEqual(80 + 4);
    expect(companies()).toHaveLength(4 * CODES.length);
    expect(comps.every((c) => companies().includes(c))).toBe(true);
  });

  test("the queue status counts the sheet on screen's companies complete", async () => {
    const { client } = sandboxClient(60);
    client.prioritize((address) => address.startsWith("Comps!"));
    const { calls } = queueModel(client);
    await jest.advanceTimersByTimeAsync(0);
    // The burst of 10 has gone (two and a half companies), the rest waits.
    const start = client.queueStatus().sheet;
    expect(start?.companies).toBe(30);
    expect(start?.complete).toBeLessThanOrEqual(2);
    // 40 requests: the burst of 10 (the first 2.5 companies) and then one a second.
    await jest.advanceTimersByTimeAsync(31_000);
    const mid = client.queueStatus().sheet;
    expect(mid?.companies).toBe(30);
    expect(mid?.complete).toBeGreaterThanOrEqual(5);
    expect(mid?.complete).toBeLessThan(30);
    await jest.advanceTimersByTimeAsync(6 * 61_000);
    await Promise.all(calls);
    // The queue is empty: nothing to count until the next build.
    expect(client.queueStatus().sheet).toBeUndefined();
  });

  test("a retry goes first; a request of no cell waits for as many cells' requests as were queued before it", async () => {
    const pacer = new Pacer({ ratePerMinute: 1, windowMs: 1000 });
    const order: string[] = [];
    const take = async (
      name: string,
      place?: { group: string; address: string },
      first = false,
    ) => {
      const permit = await pacer.acquire(undefined, undefined, first, place);
      order.push(name);
      permit.sent();
      permit.done();
    };
    await take("warm");
    const all = [
      take("z row 9", { group: "Z", address: "S!A9" }),
      take("pane"),
      take("a row 2", { group: "A", address: "S!A2" }),
      take("retry", { group: "Z", address: "S!A9" }, true),
    ];
    await jest.advanceTimersByTimeAsync(10_000);
    await Promise.all(all);
    // The pane's request waits for the one cell's request queued before it (the best-placed
    // one, row 2), and no other.
    expect(order).toEqual(["warm", "retry", "a row 2", "pane", "z row 9"]);
  });
});
