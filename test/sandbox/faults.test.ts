// Fault injection (deterministic by seed), latency and the in-process request log.
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { FaultInjector } from "../../sandbox/lib/faults";
import { get, makeSandbox } from "./helpers";

describe("fault injection", () => {
  test("the same seed gives the same sequence of faults", () => {
    const a = new FaultInjector({ rate: 0.5, seed: 42 });
    const b = new FaultInjector({ rate: 0.5, seed: 42 });
    const seqA = Array.from({ length: 50 }, () => a.next());
    const seqB = Array.from({ length: 50 }, () => b.next());
    expect(seqA).toEqual(seqB);
    expect(seqA.filter((k) => k !== null).length).toBeGreaterThan(10);
    expect(seqA.filter((k) => k === null).length).toBeGreaterThan(10);
  });

  test("rate 0 never faults; rate 1 always faults", () => {
    const none = new FaultInjector({ rate: 0 });
    const all = new FaultInjector({ rate: 1, kinds: ["503"] });
    for (let i = 0; i < 20; i += 1) {
      expect(none.next()).toBeNull();
      expect(all.next()).toBe("503");
    }
  });

  test("503 fault -> common error body with status 503", async () => {
    const sandbox = makeSandbox({ faults: { rate: 1, kinds: ["503"], seed: 1 } });
    const answer = await get(sandbox, "/v1/usage");
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe("service_unavailable");
  });

  test("500 fault -> common error body with status 500", async () => {
    const sandbox = makeSandbox({ faults: { rate: 1, kinds: ["500"], seed: 1 } });
    const answer = await get(sandbox, "/v1/usage");
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe("internal_error");
  });

  test("malformed fault -> 200 whose JSON body does not parse", async () => {
    const sandbox = makeSandbox({ faults: { rate: 1, kinds: ["malformed"], seed: 1 } });
    const res = await sandbox.app.request("/v1/usage", {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    await expect(res.json()).rejects.toThrow();
  });

  test("drop fault -> app.request rejects (no response at all) and the log records status 0", async () => {
    const sandbox = makeSandbox({ faults: { rate: 1, kinds: ["drop"], seed: 1 } });
    await expect(
      sandbox.app.request("/v1/usage", { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } }),
    ).rejects.toMatchObject({ message: expect.stringContaining("dropped") });
    expect(sandbox.requestLog.at(-1)).toMatchObject({ path: "/v1/usage", status: 0 });
  });

  test("reset() restarts the fault sequence from the seed", async () => {
    const sandbox = makeSandbox({ faults: { rate: 0.5, kinds: ["503"], seed: 7 } });
    const first: number[] = [];
    for (let i = 0; i < 12; i += 1) first.push((await get(sandbox, "/v1/usage")).status);
    sandbox.reset();
    const second: number[] = [];
    for (let i = 0; i < 12; i += 1) second.push((await get(sandbox, "/v1/usage")).status);
    expect(second).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });
});

describe("latency", () => {
  afterEach(() => jest.useRealTimers());

  test("latencyMs delays the answer by that many milliseconds", async () => {
    jest.useFakeTimers();
    const sandbox = makeSandbox({ latencyMs: 500 });
    let settled = false;
    const pending = get(sandbox, "/v1/usage").then((a) => {
      settled = true;
      return a;
    });
    await jest.advanceTimersByTimeAsync(499);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });
});

describe("request log", () => {
  test("records method, path, query, status and time, without the key", async () => {
    const sandbox = makeSandbox({ rateClock: () => Date.parse("2026-11-21T00:00:00Z") });
    await get(sandbox, "/v1/screening/fields?x=1");
    await get(sandbox, `/v1/usage?api_key=${DEMO_API_KEY}&token=abc`);
    await get(sandbox, "/v1/usage", { authorization: null });
    expect(sandbox.requestLog).toEqual([
      {
        method: "GET",
        path: "/v1/screening/fields",
        query: "x=1",
        status: 200,
        at: "2026-11-21T00:00:00.000Z",
      },
      {
        method: "GET",
        path: "/v1/usage",
        query: "api_key=%5Bredacted%5D&token=%5Bredacted%5D",
        status: 200,
        at: "2026-11-21T00:00:00.000Z",
      },
      { method: "GET", path: "/v1/usage", query: "", status: 401, at: "2026-11-21T00:00:00.000Z" },
    ]);
    expect(JSON.stringify(sandbox.requestLog)).not.toContain(DEMO_API_KEY);
  });

  test("reset() empties the log", async () => {
    const sandbox = makeSandbox();
    await get(sandbox, "/v1/usage");
    sandbox.reset();
    expect(sandbox.requestLog).toHaveLength(0);
  });
});
