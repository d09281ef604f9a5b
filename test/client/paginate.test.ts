// Cursor paging: same conditions with each next_cursor, null ends, page cap, repeated-cursor guard.

import { BadResponseError } from "../../src/client/errors";
import { createClient } from "../../src/client/client";
import { TEST_KEY, recordingFetch, reply } from "./helpers";

function pages(cursors: Array<string | null>) {
  return recordingFetch((_req, i) =>
    reply(200, {
      code: "7203",
      prices: [{ n: i }],
      next_cursor: cursors[Math.min(i, cursors.length - 1)] ?? null,
    }),
  );
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("paginate", () => {
  test("follows next_cursor with the same conditions until null", async () => {
    const rec = pages(["c1", "c2", null]);
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    const got = await collect(
      client.paginate("getPrices", { code: "7203", limit: 2, from: "2024-01-01" }),
    );
    expect(got).toHaveLength(3);
    expect(rec.requests.map((r) => r.url.replace("https://api.irbank.net/v1", ""))).toEqual([
      "/securities/7203/prices?from=2024-01-01&limit=2",
      "/securities/7203/prices?cursor=c1&from=2024-01-01&limit=2",
      "/securities/7203/prices?cursor=c2&from=2024-01-01&limit=2",
    ]);
  });

  test("stops at maxPages", async () => {
    let n = 0;
    const rec = recordingFetch(() => reply(200, { securities: [], next_cursor: `c${(n += 1)}` }));
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    const got = await collect(client.paginate("listSecurities", { limit: 500 }, { maxPages: 4 }));
    expect(got).toHaveLength(4);
    expect(rec.requests).toHaveLength(4);
  });

  test("defaults to at most 50 pages", async () => {
    let n = 0;
    const rec = recordingFetch(() => reply(200, { securities: [], next_cursor: `c${(n += 1)}` }));
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    expect(await collect(client.paginate("listSecurities", {}))).toHaveLength(50);
  });

  test("a repeated cursor throws BadResponseError instead of looping", async () => {
    expect.assertions(4);
    const rec = pages(["c1", "c2", "c1"]);
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    const got: unknown[] = [];
    try {
      for await (const page of client.paginate("getPrices", { code: "7203" })) got.push(page);
    } catch (e) {
      expect(e).toBeInstanceOf(BadResponseError);
      expect((e as BadResponseError).message).toBe(
        "The API returned the same page cursor twice: paging stopped",
      );
    }
    expect(got).toHaveLength(3);
    expect(rec.requests).toHaveLength(3);
  });

  test("the first page's own cursor counts as seen", async () => {
    const rec = pages(["start"]);
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    await expect(
      collect(client.paginate("getPrices", { code: "7203", cursor: "start" })),
    ).rejects.toBeInstanceOf(BadResponseError);
    expect(rec.requests).toHaveLength(1);
  });

  test("invalid conditions send nothing", async () => {
    const rec = pages([null]);
    const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
    await expect(
      collect(client.paginate("getPrices", { code: "7203", limit: 9999 })),
    ).rejects.toMatchObject({ code: "invalid_parameter" });
    expect(rec.requests).toHaveLength(0);
  });
});
