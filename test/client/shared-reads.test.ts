// The tiered store's persistent reads are work in the client's one map (inflight.ts): found,
// joined and awaited with the client's requests, read once per key, never counted as requests.
import { createClient, type KaishaClient } from "../../src/client/client";
import { MemoryCacheStore, type CacheEntry } from "../../src/client/cache";
import { TieredCacheStore } from "../../src/client/tiered-cache";

/** A persistent tier whose reads wait until `release`, counted per key. */
class HeldPersistent extends MemoryCacheStore {
  readonly reads: string[] = [];
  private opened: (() => void) | undefined;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));

  release(): void {
    this.opened?.();
  }

  override async get(key: string): Promise<CacheEntry | undefined> {
    this.reads.push(key);
    await this.gate;
    return super.get(key);
  }
}

const KEY = "p0/securities/7203";
const OTHER = "p0/securities/6758";
const ENTRY: CacheEntry = { body: { security_code: "7203" }, storedAt: 0, bytes: 24 };

async function setUp(): Promise<{ persistent: HeldPersistent; store: TieredCacheStore }> {
  const persistent = new HeldPersistent();
  await persistent.set(KEY, ENTRY);
  return { persistent, store: new TieredCacheStore(new MemoryCacheStore(), persistent) };
}

function clientOver(store: TieredCacheStore): KaishaClient {
  // No request is sent in these tests: a fetch that fails says so.
  const fetch = (): Promise<Response> => Promise.reject(new Error("no request expected"));
  return createClient({ baseUrl: "http://api.test/v1", apiKey: "k", fetch, cacheStore: store });
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test("a persistent read under way is work in the client's map: joined by every reader, awaited with the client's work, not a coalesced request", async () => {
  const { persistent, store } = await setUp();
  const client = clientOver(store);
  const work = client.flights().work;
  expect(work.size).toBe(0);

  const reads = [store.get(KEY), store.get(KEY), store.get(KEY)];
  await turn();
  // One read, found in the client's map while it is under way.
  expect(work.size).toBe(1);
  expect(persistent.reads).toEqual([KEY]);
  let settled = false;
  const everything = work.allSettled().then(() => (settled = true));
  await turn();
  expect(settled).toBe(false);

  persistent.release();
  const entries = await Promise.all(reads);
  await everything;
  expect(entries.map((e) => e?.body)).toEqual([ENTRY.body, ENTRY.body, ENTRY.body]);
  expect(work.size).toBe(0);
  expect(persistent.reads).toEqual([KEY]);
  // Readers joining a read are not requests that shared a flight.
  expect(client.stats().coalesced).toBe(0);
  // In memory now: read without the persistent tier.
  expect(store.peek(KEY)?.body).toEqual(ENTRY.body);
});

test("a store whose bulk load announced its reads keeps them where they are found; a client made meanwhile has the reads after them", async () => {
  const { persistent, store } = await setUp();
  await persistent.set(OTHER, ENTRY);
  const announced = await store.expect(Promise.resolve([KEY]));
  const client = clientOver(store);
  // The announced read stays in the store's own map (not moved, so it is not read twice).
  expect(client.flights().work.size).toBe(0);
  const reading = store.get(KEY);
  await turn();
  // The cell waits for the load, which reads nothing by itself until it hands the key in.
  expect(persistent.reads).toEqual([]);
  announced.handIn(KEY, ENTRY);
  expect((await reading)?.body).toEqual(ENTRY.body);
  expect(persistent.reads).toEqual([]);
  // The load over, the next read is the client's work.
  const other = store.get(OTHER);
  await turn();
  expect(client.flights().work.size).toBe(1);
  persistent.release();
  expect((await other)?.body).toEqual(ENTRY.body);
  expect(persistent.reads).toEqual([OTHER]);
});
