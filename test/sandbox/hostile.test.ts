// The sandbox's hostile-text mode: formula-like strings in every free-text, URL and loose field.
import { HOSTILE_TEXTS, HOSTILE_URLS, poison } from "../../sandbox/lib/hostile";
import { optionsFromEnv } from "../../sandbox/server";
import { get, makeSandbox } from "./helpers";

const ALL = new Set([...HOSTILE_TEXTS, ...HOSTILE_URLS]);

describe("hostile mode", () => {
  test("officers: names and positions are hostile, codes and ids are untouched", async () => {
    const plain = await get(makeSandbox(), "/v1/securities/7203/officers");
    const hostile = await get(makeSandbox({ hostile: true }), "/v1/securities/7203/officers");
    expect(hostile.status).toBe(200);
    const officers = hostile.body.officers as Record<string, unknown>[];
    expect(officers.length).toBeGreaterThan(0);
    for (const o of officers) expect(ALL.has(String(o["name"]))).toBe(true);
    expect(officers.map((o) => o["person_id"])).toEqual(
      (plain.body.officers as Record<string, unknown>[]).map((o) => o["person_id"]),
    );
    expect(ALL.has(hostile.body.attribution.source_label)).toBe(true);
  });

  test("disclosures: titles and URLs carry every hostile kind across a list", async () => {
    const answer = await get(
      makeSandbox({ hostile: true }),
      "/v1/securities/7203/disclosures?limit=50",
    );
    expect(answer.status).toBe(200);
    const seen = new Set<string>();
    for (const d of answer.body.disclosures as Record<string, unknown>[]) {
      for (const v of Object.values(d)) if (typeof v === "string") seen.add(v);
    }
    expect([...HOSTILE_URLS].some((u) => seen.has(u))).toBe(true);
    expect(seen.has("+5%") || seen.has("-") || seen.has("\t=1+1")).toBe(true);
  });

  test("errors are not rewritten, and off by default", async () => {
    const missing = await get(makeSandbox({ hostile: true }), "/v1/securities/0000/officers");
    expect(missing.status).toBe(404);
    expect(ALL.has(missing.body.error.message)).toBe(false);
    const plain = await get(makeSandbox(), "/v1/securities/7203/officers");
    for (const o of plain.body.officers as Record<string, unknown>[]) {
      expect(ALL.has(String(o["name"]))).toBe(false);
    }
  });

  test("poison: the round robin reaches every text (leading =, +, -, @, tab, CR, full width)", () => {
    const body = poison({ rows: HOSTILE_TEXTS.map(() => ({ name: "x", code: "7203" })) }) as {
      rows: { name: string; code: string }[];
    };
    expect(body.rows.map((r) => r.name)).toEqual(HOSTILE_TEXTS);
    expect(body.rows.every((r) => r.code === "7203")).toBe(true);
    expect(HOSTILE_TEXTS.map((t) => t.charAt(0))).toEqual(
      expect.arrayContaining(["=", "+", "-", "@", "\t", "\r", "＝"]),
    );
  });

  test("SANDBOX_HOSTILE=1 turns it on", () => {
    expect(optionsFromEnv({ SANDBOX_HOSTILE: "1" }).hostile).toBe(true);
    expect(optionsFromEnv({}).hostile).toBeUndefined();
  });
});
