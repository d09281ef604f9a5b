// startSandbox(): a real socket on 127.0.0.1 (port 0), spoken to with fetch.
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { optionsFromEnv, startSandbox, type RunningSandbox } from "../../sandbox/server";

describe("startSandbox on port 0", () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandbox({ port: 0, ratePerMinute: 0 });
  });
  afterAll(async () => {
    await running.close();
  });

  test("listens on 127.0.0.1 and reports a /v1 base URL", () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(running.port).toBeGreaterThan(0);
  });

  test("answers GET /usage over HTTP with the demo key", async () => {
    const res = await fetch(`${running.url}/usage`, {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { remaining: number };
    expect(body.remaining).toBe(5000);
  });

  test("answers 401 without a key, with the common error object", async () => {
    const res = await fetch(`${running.url}/securities`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  test("the request log of the running app records the requests", async () => {
    const before = running.sandbox.requestLog.length;
    await fetch(`${running.url}/usage?probe=1`, {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(running.sandbox.requestLog.length).toBe(before + 1);
    expect(running.sandbox.requestLog.at(-1)).toMatchObject({
      path: "/v1/usage",
      query: "probe=1",
      status: 200,
    });
  });
});

describe("drop fault over a socket", () => {
  test("the connection is destroyed: fetch fails without a response", async () => {
    const running = await startSandbox({ port: 0, faults: { rate: 1, kinds: ["drop"], seed: 3 } });
    try {
      await expect(
        fetch(`${running.url}/usage`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } }),
      ).rejects.toThrow();
    } finally {
      await running.close();
    }
  });
});

describe("optionsFromEnv", () => {
  test("reads every SANDBOX_* setting", () => {
    const options = optionsFromEnv({
      SANDBOX_PORT: "9999",
      SANDBOX_API_KEYS: " a , b ",
      SANDBOX_RATE_PER_MINUTE: "0",
      SANDBOX_DAILY_LIMIT: "10",
      SANDBOX_NOW: "2026-01-05T00:00:00Z",
      SANDBOX_LATENCY_MS: "250",
      SANDBOX_FAULT_RATE: "0.1",
      SANDBOX_FAULTS: "503,drop",
      SANDBOX_SEED: "42",
    });
    expect(options).toEqual({
      port: 9999,
      apiKeys: ["a", "b"],
      ratePerMinute: 0,
      dailyLimit: 10,
      now: "2026-01-05T00:00:00Z",
      latencyMs: 250,
      faults: { rate: 0.1, kinds: ["503", "drop"], seed: 42 },
    });
  });

  test("defaults to port 8787 and no overrides", () => {
    expect(optionsFromEnv({})).toEqual({ port: 8787 });
  });

  test("rejects an unknown fault kind and a non-numeric limit", () => {
    expect(() => optionsFromEnv({ SANDBOX_FAULT_RATE: "0.5", SANDBOX_FAULTS: "timeout" })).toThrow(
      /timeout/,
    );
    expect(() => optionsFromEnv({ SANDBOX_DAILY_LIMIT: "lots" })).toThrow(/SANDBOX_DAILY_LIMIT/);
  });
});
