// The path of a cold FINANCIAL cell (no answer held): call stacks at the points where the client
// touches the cache and the network, so a domain rule that calls back into the client that called
// it (client -> domain -> client) fails here; the domain is reached from functions/ and calls the
// client, never the other way round.
import { FINANCIAL } from "../../functions/index";
import { setHostCapabilities } from "../../functions/host";
import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import {
  MemoryCacheStore,
  TieredCacheStore,
  createClient,
  type CacheEntry,
  type FetchLike,
} from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { sandboxFetch } from "../client/helpers";
import { resetSession } from "./harness";
import { captureStack, filesOnStack } from "./stack-probe";

afterAll(resetSession);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

const stacks: string[] = [];

/** A tier whose reads and writes are probed. */
class ProbedStore extends MemoryCacheStore {
  override peek(key: string): CacheEntry | undefined {
    stacks.push(captureStack());
    return super.peek(key);
  }
  override async get(key: string): Promise<CacheEntry | undefined> {
    stacks.push(captureStack());
    return super.get(key);
  }
  override async set(key: string, entry: CacheEntry): Promise<void> {
    stacks.push(captureStack());
    return super.set(key, entry);
  }
}

/** The layer of a product file: "client", "domain" or another (its top folder). */
function layer(file: string): string {
  if (file.startsWith("src/client/")) return "client";
  if (file.startsWith("src/domain/")) return "domain";
  return file.split("/")[0] ?? file;
}

/**
 * The path when a domain frame called directly by a client frame has a client frame above it
 * (client -> domain -> client), outermost first; else undefined. A callback the client runs (the
 * sharing layer running a cell's shared work, src/client/inflight.ts) is the caller's code, not
 * the client's: a domain rule it calls was called from functions/.
 */
function reentry(files: readonly string[]): string | undefined {
  const layers = files.map(layer);
  for (let i = 1; i < layers.length; i += 1) {
    if (layers[i] !== "domain" || layers[i - 1] !== "client") continue;
    if (layers.indexOf("client", i) >= 0) return files.join("\n> ");
  }
  return undefined;
}

test("the re-entry check sees client -> domain -> client, not functions -> domain -> client", () => {
  expect(
    reentry(["functions/index.ts", "src/client/client.ts", "src/domain/a.ts", "src/client/b.ts"]),
  ).toBeDefined();
  expect(
    reentry(["functions/index.ts", "src/domain/a.ts", "src/client/client.ts", "src/client/b.ts"]),
  ).toBeUndefined();
  expect(
    reentry(["src/client/inflight.ts", "functions/a.ts", "src/domain/b.ts", "src/client/c.ts"]),
  ).toBeUndefined();
});

test("a cold FINANCIAL cell never returns into the client from the domain", async () => {
  const sandbox = createApp({ ratePerMinute: 0 });
  let fetches = 0;
  const inner = sandboxFetch(sandbox);
  // The exchange is probed too: the deepest point of a cold cell.
  const fetch: FetchLike = (url, init) => {
    fetches += 1;
    stacks.push(captureStack());
    return inner(url, init);
  };
  const client = createClient({
    baseUrl: "http://sandbox.test/v1",
    apiKey: DEMO_API_KEY,
    fetch,
    ratePerMinute: 0,
    maxRetries: 0,
    sleep: async () => undefined,
    now: () => NOW,
    // As the add-in's session: filing answers look their company's results day up.
    staleWhileRevalidate: true,
  });
  const store = new TieredCacheStore(new ProbedStore(), new ProbedStore());
  setClientForTesting(client.withOptions({ cacheStore: store }), { lang: "en" }, store);
  setHostCapabilities({ dataTypes: false });
  // Another company's EDINET code, asked of the sandbox by a client of its own (nothing stored).
  const { edinet_code: edinet } = await createClient({
    baseUrl: "http://sandbox.test/v1",
    apiKey: DEMO_API_KEY,
    fetch: inner,
    ratePerMinute: 0,
    now: () => NOW,
  }).financials({ security_code: "6758", period: "annual", years: 1 });
  stacks.length = 0;
  fetches = 0;
  const cell = (company: string | number) =>
    FINANCIAL(
      company,
      "sales",
      "FY-1",
      null as never,
      null as never,
      null as never,
      { address: "Sheet1!B2" } as never,
    ) as unknown;
  // By EDINET code too: the company resolution (src/domain/company-resolver.ts) is on its path.
  const values = await Promise.all([cell(7203), cell(edinet)]);
  expect(typeof values[0]).toBe("number");
  expect(typeof values[1]).toBe("number");
  expect(fetches).toBeGreaterThan(0);
  const paths = stacks.map(filesOnStack);
  // Some stacks reach the domain (else the check below proves nothing).
  expect(paths.some((p) => p.some((f) => f.startsWith("src/client/")))).toBe(true);
  const found = paths.map(reentry).filter((r): r is string => r !== undefined);
  if (found.length > 0) throw new Error(`client -> domain -> client:\n${found[0]}`);
});
