// A wrong-typed answer is never a figure: values of another type than the contract's, a period twice
// with other figures and stored records of another shape become #N/A (or the last good value, marked).
import fc from "fast-check";
import "../fast-check-seed";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import * as TYPED from "../../functions/index";
import { tiered } from "../../functions/addin-cache";
import { setHostCapabilities } from "../../functions/host";
import { MemoryCacheStore, createClient } from "../../src/client";
import { setClientForTesting } from "../../src/session";
import { schemaErrors } from "../contract/response-validator";
import { BASE_URL, cellErrorOf, harness, type Harness } from "./support/harness";
import { settleWithFakeTimers } from "./support/settle";

// The wrappers' parameters carry custom-enum types; tests pass what Excel passes (null, text).
const { FINANCIAL, PRICE } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(120_000);

const invocation = (): CustomFunctions.CancelableInvocation =>
  ({}) as CustomFunctions.CancelableInvocation;

const item = (name: string, fiscalPeriod = 0): Promise<unknown> =>
  FINANCIAL("7203", name, fiscalPeriod, null, null, null, invocation());
const sales = (): Promise<unknown> => item("sales");

const HOUR = 3_600_000;

afterEach(() => {
  setClientForTesting(undefined);
  setHostCapabilities({ dataTypes: false });
});

type Period = Record<string, unknown>;
type Body = Record<string, unknown> & { periods: Period[] };

/** The sandbox's healthy /financials answer (what FINANCIAL asks: annual, 30 years). */
async function healthyFinancials(h: Harness): Promise<Body> {
  const res = await h.sandbox.app.request(
    `${BASE_URL}/financials?period=annual&security_code=7203&years=30`,
    { headers: { authorization: `Bearer ${DEMO_API_KEY}` } },
  );
  return (await res.json()) as Body;
}

/** Every /financials request answered with `body` (the rest of the harness stays as is). */
function answeringFinancials(h: Harness, body: () => unknown): void {
  const healthy = h.sandbox.app;
  h.wire.setApp({
    request(input: string, init?: RequestInit) {
      if (!new URL(input).pathname.endsWith("/financials")) return healthy.request(input, init);
      return new Response(JSON.stringify(body()), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    },
  });
}

/** The latest period of `body` (FINANCIAL's fiscal_period 0: openapi.json periods are oldest first). */
const latestIndex = (body: Body): number => body.periods.length - 1;

const wrongTypes: [string, unknown][] = [
  ["a number sent as text", "43111480267765"],
  ["a boolean", true],
  ["an object", { amount: 43111480267765 }],
];

describe("a value of another type than the contract's", () => {
  it.each(wrongTypes)(
    "%s in sales, nothing stored: #N/A naming the field",
    async (_name, value) => {
      const h = harness();
      const body = await healthyFinancials(h);
      const last = latestIndex(body);
      (body.periods[last] as Period)["sales"] = value;
      answeringFinancials(h, () => body);
      expect(await cellErrorOf(sales())).toEqual({
        code: "#N/A",
        message: `Unexpected answer from the API (field periods[${last}].sales: a number or empty (null) expected)`,
      });
    },
  );

  it.each(wrongTypes)(
    "%s in sales with a stored answer: the stored figure, marked stale",
    async (_name, value) => {
      const h = harness();
      const good = await sales();
      expect(typeof good).toBe("number");
      h.clock.now += 8 * 24 * HOUR; // past /financials' freshness (freshness.ts: the weekly check)
      const body = await healthyFinancials(h);
      (body.periods[latestIndex(body)] as Period)["sales"] = value;
      answeringFinancials(h, () => body);
      setHostCapabilities({ dataTypes: true });
      expect(await sales()).toEqual({
        type: "Double",
        basicValue: good,
        numberFormat: expect.stringMatching(/"( \(stale\)|（古い値）)"$/),
      });
      expect(h.client.stats().staleServed).toBe(1);
    },
  );

  it.each(wrongTypes)(
    "%s answered to a background refresh: the stored figure stays (marked stale), never replaced, never #N/A",
    async (_name, value) => {
      jest.useFakeTimers({ now: Date.parse("2026-11-20T09:00:00Z") });
      try {
        const h = harness({
          realSleep: true,
          client: { staleWhileRevalidate: true, ttlMs: { getFinancials: HOUR }, maxRetries: 0 },
        });
        const first = await settleWithFakeTimers(sales(), 60_000);
        if (first.state !== "fulfilled") throw new Error("no first figure");
        const good = first.value;
        expect(typeof good).toBe("number");
        const body = await healthyFinancials(h);
        (body.periods[latestIndex(body)] as Period)["sales"] = value;
        let bad = 0;
        answeringFinancials(h, () => {
          bad += 1;
          return body;
        });
        jest.setSystemTime(Date.now() + 2 * HOUR); // due (ttlMs): shown at once, asked in the background
        setHostCapabilities({ dataTypes: true });
        const marked = {
          type: "Double",
          basicValue: good,
          numberFormat: expect.stringMatching(/"( \(stale\)|（古い値）)"$/),
        };
        // Due, inside the revalidation window: the stored figure at once, asked in the background.
        expect(await settleWithFakeTimers(sales(), 5_000)).toMatchObject({
          state: "fulfilled",
          value: { type: "Double", basicValue: good },
        });
        await jest.advanceTimersByTimeAsync(60_000);
        expect(bad).toBe(1); // the background refresh was sent and its answer refused
        // The cell shows the stored figure marked stale; the stored record is still the good one.
        expect(await settleWithFakeTimers(sales(), 5_000)).toMatchObject({
          state: "fulfilled",
          value: marked,
        });
        const keys = (await h.store.keys()).filter((k) => k.includes("financials"));
        expect(keys).toHaveLength(1);
        const record = await h.store.get(keys[0] as string);
        expect(JSON.stringify(record)).toContain(String(good));
      } finally {
        jest.useRealTimers();
      }
    },
  );

  it("text in a field the cell does not read still refuses the answer (no figure from a bad answer)", async () => {
    const h = harness();
    const body = await healthyFinancials(h);
    (body.periods[0] as Period)["is_consolidated"] = "true";
    answeringFinancials(h, () => body);
    expect(await cellErrorOf(sales())).toEqual({
      code: "#N/A",
      message:
        "Unexpected answer from the API (field periods[0].is_consolidated: true or false expected)",
    });
  });
});

describe("a fiscal year twice", () => {
  it("with different figures: #N/A naming both rows, never the one that comes last", async () => {
    const h = harness();
    const body = await healthyFinancials(h);
    const last = latestIndex(body);
    const latest = body.periods[last] as Period;
    body.periods.push({ ...latest, sales: (latest["sales"] as number) + 1 });
    answeringFinancials(h, () => body);
    expect(await cellErrorOf(sales())).toEqual({
      code: "#N/A",
      message: `Unexpected answer from the API (field periods[${last + 1}]: the same period as periods[${last}] with other figures)`,
    });
  });

  it("identical rows: kept once, the figure shown", async () => {
    const h = harness();
    const body = await healthyFinancials(h);
    const latest = body.periods[latestIndex(body)] as Period;
    body.periods.push({ ...latest });
    answeringFinancials(h, () => body);
    expect(await sales()).toBe(latest["sales"]);
    // The year before is still the year before (the repeat did not shift the periods).
    expect(await item("sales", -1)).toBe((body.periods[latestIndex(body) - 2] as Period)["sales"]);
  });
});

describe("records read back from storage pass the same check", () => {
  /** A reopened session: a new client over the same persistent records, as the add-in builds it. */
  function reopen(h: Harness, persistent: MemoryCacheStore): void {
    const client = createClient({
      baseUrl: BASE_URL,
      apiKey: DEMO_API_KEY,
      fetch: h.wire.fetch,
      now: () => h.clock.now,
      sleep: async (ms: number) => {
        h.clock.now += ms;
      },
      ratePerMinute: 0,
      lang: "en",
      cacheStore: tiered(persistent),
      checkAnswers: true,
    });
    setClientForTesting(client, { lang: "en" });
  }

  /** A first session that stored 7203's answers, then every stored record replaced by `body`. */
  async function storedAs(body: unknown): Promise<{ h: Harness; persistent: MemoryCacheStore }> {
    const persistent = new MemoryCacheStore();
    const store = tiered(persistent);
    const h = harness({ client: { cacheStore: store } });
    expect(typeof (await sales())).toBe("number");
    await store.flush();
    const keys = await persistent.keys();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const entry = await persistent.get(key);
      if (entry !== undefined) await persistent.set(key, { ...entry, body });
    }
    return { h, persistent };
  }

  const shapes: [string, unknown][] = [
    ["valid JSON of another shape ([1,2,3])", [1, 2, 3]],
    ["an older layout", { periods: [{ year: 2025, sales: 1 }] }],
    ["a text figure", { edinet_code: "E02144", periods: [{ sales: "1" }] }],
  ];

  it.each(shapes)("%s: dropped, and the cell asks the API again", async (_name, body) => {
    const { h, persistent } = await storedAs(body);
    reopen(h, persistent);
    const before = h.wire.counters.requests;
    const shown = await sales();
    expect(typeof shown).toBe("number");
    expect(h.wire.counters.requests - before).toBe(1);
  });

  it("a bulk load at reopen (warm-up.ts) hands in a record of another shape: dropped the same way", async () => {
    const h = harness();
    const valid = await healthyFinancials(h);
    const persistent = new MemoryCacheStore();
    const at = (code: string) => `${"0".repeat(32)}/financials?security_code=${code}`;
    await persistent.set(at("7203"), { body: [1, 2, 3], storedAt: h.clock.now, bytes: 7 });
    await persistent.set(at("6758"), { body: valid, storedAt: h.clock.now, bytes: 7 });
    const store = tiered(persistent);
    const { handIn } = await store.expect(Promise.resolve([at("7203"), at("6758")]));
    const asked = [store.get(at("7203")), store.get(at("6758"))];
    for (const code of ["7203", "6758"]) handIn(at(code), await persistent.get(at(code)));
    const [bad, good] = await Promise.all(asked);
    expect(bad).toBeUndefined();
    expect(good?.body).toEqual(valid);
    expect(await persistent.get(at("7203"))).toBeUndefined();
  });

  it("offline, a dropped record is a miss: the cell says the API cannot be reached, not 'Unexpected error'", async () => {
    const { h, persistent } = await storedAs([1, 2, 3]);
    reopen(h, persistent);
    h.wire.setApp({
      request: () => {
        throw new TypeError("fetch failed");
      },
    });
    const error = await cellErrorOf(sales());
    expect(error.code).toBe("#N/A");
    expect(error.message).not.toMatch(/Unexpected error/);
    expect(error.message).toMatch(/connect/i);
    // The record is gone: nothing of that shape is read again.
    const left = await Promise.all((await persistent.keys()).map((k) => persistent.get(k)));
    expect(left.filter((e) => Array.isArray(e?.body))).toEqual([]);
  });
});

/** FinancialsPeriod properties the mutations touch, with what each may wrongly be. */
const NUMERIC = ["sales", "operating_profit", "net_income", "eps"] as const;
const wrongValue = fc.oneof(
  fc.constant("43111480267765"),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant({ value: 1 }),
  fc.constant([1]),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(null),
);
const mutation = fc.oneof(
  fc.record({ row: fc.nat(), field: fc.constantFrom(...NUMERIC), value: wrongValue }),
  fc.record({
    row: fc.nat(),
    field: fc.constant("fiscal_year"),
    value: fc.oneof(fc.integer(), fc.boolean()),
  }),
  fc.record({
    row: fc.nat(),
    field: fc.constant("is_consolidated"),
    value: fc.oneof(fc.constant("true"), fc.integer({ min: 0, max: 1 }), fc.boolean()),
  }),
);
const duplicate = fc.option(fc.record({ row: fc.nat(), changed: fc.boolean() }), {
  nil: undefined,
});

/** Independent of the client: rows of one (fiscal_year, quarter) whose JSON differs. */
function differingRepeat(periods: readonly Period[]): boolean {
  const seen = new Map<string, string>();
  for (const p of periods) {
    const id = JSON.stringify([p["fiscal_year"], p["quarter"] ?? null]);
    const json = JSON.stringify(p);
    const first = seen.get(id);
    if (first !== undefined && first !== json) return true;
    seen.set(id, json);
  }
  return false;
}

/** A cell value of the contract's number-or-null kind: a number, empty, or a formatted number. */
function numberOrEmpty(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (value === "" || value === null) return true;
  const v = value as { type?: unknown; basicValue?: unknown } | undefined;
  return v?.type === "Double" && typeof v.basicValue === "number";
}

describe("property: no cell shows a value of another type than the contract's", () => {
  it("answers with mutated field types and repeated rows: figures or #N/A, as the schema (Ajv) says", async () => {
    const h = harness();
    const healthy = await healthyFinancials(h);
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { maxLength: 3 }),
        duplicate,
        fc.boolean(),
        async (mutations, dup, stored) => {
          const body = structuredClone(healthy);
          for (const m of mutations) {
            (body.periods[m.row % body.periods.length] as Period)[m.field] = m.value;
          }
          if (dup !== undefined) {
            const row = body.periods[dup.row % body.periods.length] as Period;
            body.periods.push(
              dup.changed ? { ...row, sales: 1 + Number(row["sales"]) } : { ...row },
            );
          }
          const refused =
            schemaErrors("FinancialsResponse", body).length > 0 || differingRepeat(body.periods);
          // A fresh session each run: with a stored good answer (expired) or none.
          const wire = harness();
          if (stored) {
            await sales();
            wire.clock.now += 8 * 24 * HOUR;
          }
          answeringFinancials(wire, () => body);
          for (const name of NUMERIC) {
            for (const fiscalPeriod of [0, -1]) {
              let shown: unknown;
              try {
                shown = await item(name, fiscalPeriod);
              } catch (error) {
                const e = error as { code?: unknown; message?: unknown };
                expect(e.code).toBe("#N/A");
                // Refused answers say so; a healthy one may still lack a period (no figure).
                if (refused && !stored)
                  expect(e.message).toMatch(/^Unexpected answer from the API \(field /);
                // An answer the schema allows is never refused.
                if (!refused) expect(e.message).not.toMatch(/^Unexpected answer/);
                continue;
              }
              expect([name, fiscalPeriod, numberOrEmpty(shown)]).toEqual([
                name,
                fiscalPeriod,
                true,
              ]);
              if (refused && !stored) throw new Error(`a refused answer showed ${String(shown)}`);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("price answers with mutated field types and repeated dates: closes or #N/A, as the schema (Ajv) says", async () => {
    const priceMutation = fc.oneof(
      fc.record({
        row: fc.nat(),
        field: fc.constantFrom("close", "adj_close", "volume"),
        value: wrongValue,
      }),
      fc.record({
        row: fc.nat(),
        field: fc.constant("date"),
        value: fc.oneof(fc.integer(), fc.boolean()),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(priceMutation, { maxLength: 3 }),
        duplicate,
        async (mutations, dup) => {
          const h = harness();
          const healthy = h.sandbox.app;
          let refused = false;
          // Every /prices answer the cells ask for, altered the same way before it is sent.
          h.wire.setApp({
            async request(input: string, init?: RequestInit) {
              const res = await healthy.request(input, init);
              if (!new URL(input).pathname.endsWith("/prices") || res.status !== 200) return res;
              const body = (await res.json()) as { prices: Period[] };
              const rows = body.prices;
              if (rows.length > 0) {
                for (const m of mutations) (rows[m.row % rows.length] as Period)[m.field] = m.value;
                if (dup !== undefined) {
                  const row = rows[dup.row % rows.length] as Period;
                  rows.push(dup.changed ? { ...row, close: 1 + Number(row["close"]) } : { ...row });
                }
              }
              const byDate = new Map<unknown, string>();
              for (const row of rows) {
                const json = JSON.stringify(row);
                const first = byDate.get(row["date"]);
                if (first !== undefined && first !== json) refused = true;
                byDate.set(row["date"], json);
              }
              if (schemaErrors("PricesResponse", body).length > 0) refused = true;
              return Response.json(body);
            },
          });
          for (const day of ["2026-06-15", "2026-03-02"]) {
            let shown: unknown;
            try {
              shown = await PRICE("7203", "close", day, invocation());
            } catch (error) {
              const e = error as { code?: unknown; message?: unknown };
              expect(e.code).toBe("#N/A");
              if (refused) expect(e.message).toMatch(/^Unexpected answer from the API \(field /);
              else expect(e.message).not.toMatch(/^Unexpected answer/);
              continue;
            }
            expect([day, numberOrEmpty(shown)]).toEqual([day, true]);
            if (refused) throw new Error(`a refused answer showed ${String(shown)}`);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
