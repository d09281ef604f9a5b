// The path of a warm FINANCIAL cell, as the runtime runs it: the source files it enters (V8's
// precise coverage of one call) and the call stacks at its deepest points (the memory tier's read
// and the invocation's address), so a change that spreads the warm path over more files fails here.
import { Session } from "node:inspector";
import { FINANCIAL } from "../../functions/index";
import { setHostCapabilities } from "../../functions/host";
import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import {
  MemoryCacheStore,
  type CacheEntry,
  createClient,
  TieredCacheStore,
} from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { sandboxFetch } from "../client/helpers";
import { resetSession } from "./harness";
import { ROOT, captureStack, filesOnStack, productFile } from "./stack-probe";

afterAll(resetSession);

/** Most source files a warm FINANCIAL cell may enter (from Excel's call to its value). */
const MAX_WARM_FILES = 10;

/** The sandbox's day (read once: the clock is the test's, not the add-in's). */
const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

/** Stacks captured at the probes while `probing` is set. */
const stacks: string[] = [];
let probing = false;

function probe(): void {
  if (probing) stacks.push(captureStack());
}

/** The memory tier as the add-in has it, its reads probed (the deepest point of a warm cell). */
class ProbedMemory extends MemoryCacheStore {
  override peek(key: string): CacheEntry | undefined {
    probe();
    return super.peek(key);
  }
}

function post<T>(session: Session, method: string, params: object = {}): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))),
  );
}

interface Coverage {
  result: {
    url: string;
    functions: { functionName: string; ranges: { count: number }[] }[];
  }[];
}

/**
 * The product files whose code ran, from V8's counts. The test transform (swc, CommonJS) reads an
 * imported binding through a getter named after the export ("get FINANCIAL"): that is a variable
 * read in the add-in's bundle, not code of the file, so it is not counted.
 */
function filesRun(coverage: Coverage): string[] {
  const files: string[] = [];
  for (const script of coverage.result) {
    const file = productFile(script.url);
    if (file === undefined) continue;
    const exported = new Set(Object.keys(require(`${ROOT}${file}`) as object));
    const ran = script.functions.some(
      (f) =>
        (f.ranges[0]?.count ?? 0) > 0 &&
        !(f.functionName.startsWith("get ") && exported.has(f.functionName.slice(4))),
    );
    if (ran) files.push(file);
  }
  return files.sort();
}

test(`a warm FINANCIAL cell enters at most ${MAX_WARM_FILES} files, none of them twice on one call stack`, async () => {
  const sandbox = createApp({ ratePerMinute: 0 });
  const client = createClient({
    baseUrl: "http://sandbox.test/v1",
    apiKey: DEMO_API_KEY,
    fetch: sandboxFetch(sandbox),
    ratePerMinute: 0,
    maxRetries: 0,
    sleep: async () => undefined,
    now: () => NOW,
  });
  // The add-in's store: a memory tier in front of a persistent one (functions/addin-cache.ts).
  const store = new TieredCacheStore(new ProbedMemory(), new MemoryCacheStore());
  setClientForTesting(client.withOptions({ cacheStore: store }), { lang: "en" }, store);
  setHostCapabilities({ dataTypes: false });
  let addressReads = 0;
  // What Excel passes (@requiresAddress, @cancelable); reading the address is a probe too.
  const invocation = () => ({
    get address() {
      addressReads += 1;
      probe();
      return "Sheet1!B2";
    },
  });
  const cell = () =>
    FINANCIAL(
      7203,
      "sales",
      "FY-1",
      null as never,
      null as never,
      null as never,
      invocation() as never,
    ) as unknown;
  const cold = await cell();
  expect(typeof cold).toBe("number");
  // Warm: the value itself, at once.
  expect(cell()).toBe(cold);

  const session = new Session();
  session.connect();
  try {
    await post(session, "Profiler.enable");
    await post(session, "Profiler.startPreciseCoverage", { callCount: true, detailed: false });
    await post(session, "Profiler.takePreciseCoverage");
    probing = true;
    const warm = cell();
    probing = false;
    const coverage = await post<Coverage>(session, "Profiler.takePreciseCoverage");
    await post(session, "Profiler.stopPreciseCoverage");
    expect(warm).toBe(cold);
    const files = filesRun(coverage);
    if (files.length > MAX_WARM_FILES)
      throw new Error(`a warm cell entered ${files.length} files:\n${files.join("\n")}`);
  } finally {
    session.disconnect();
  }
  // Both probes were reached: the memory tier's read and the cell's address.
  expect(stacks.length).toBeGreaterThanOrEqual(2);
  expect(addressReads).toBeGreaterThan(0);
  for (const stack of stacks) {
    const path = filesOnStack(stack);
    expect(path[0]).toBe("functions/index.ts");
    const twice = path.filter((file, i) => path.indexOf(file) !== i);
    if (twice.length > 0)
      throw new Error(`entered again on one stack: ${twice.join(", ")}\n${path.join("\n> ")}`);
  }
});
