// A company's filing check waits until the open's cells are in, so one request covers the company.
import {
  REVALIDATION_SETTLE_MS,
  Revalidator,
  type RevalidationTask,
} from "../../src/client/revalidator";

/** Each request takes a second (the pacer's spacing at 60/min); what is sent and kept is recorded. */
function harness(settleMs: number, changed: (key: string) => boolean = () => false) {
  const sent: string[] = [];
  const kept: string[] = [];
  const revalidator = new Revalidator({
    now: Date.now,
    intervalMs: () => 1000,
    concurrency: 1,
    settleMs,
  });
  const rankOf: Record<string, number> = { quarterly: 3, semiannual: 2, annual: 1, valuations: 0 };
  const task = (company: string, kind: string): RevalidationTask => {
    const key = `${company}|${kind}`;
    return {
      key,
      company,
      filing: kind !== "prices",
      rank: rankOf[kind] ?? 0,
      refresh: () =>
        new Promise<boolean>((resolve) => {
          sent.push(key);
          setTimeout(() => resolve(changed(key)), 1000);
        }),
      touch: async () => {
        kept.push(key);
      },
    };
  };
  return { sent, kept, revalidator, task };
}

beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 10, 25, 22, 0) }));
afterEach(() => jest.useRealTimers());

/** A comparables sheet reopened: every company's annual cells first, its quarterly ones later. */
async function openComps(h: ReturnType<typeof harness>, companies: string[]): Promise<void> {
  for (const kind of ["annual", "prices", "quarterly", "semiannual", "valuations"]) {
    for (const c of companies) h.revalidator.schedule(h.task(c, kind), `'Comps'!${c}1`);
    // Excel hands the next batch of cells a little later.
    await jest.advanceTimersByTimeAsync(400);
  }
}

test("one check per company when its answers are queued over the open (the highest rank)", async () => {
  const h = harness(REVALIDATION_SETTLE_MS);
  await openComps(h, ["A", "B", "C"]);
  await jest.advanceTimersByTimeAsync(60_000);
  await h.revalidator.idle();
  const checks = h.sent.filter((k) => !k.endsWith("|prices"));
  expect(checks.sort()).toEqual(["A|quarterly", "B|quarterly", "C|quarterly"]);
  expect(h.kept.sort()).toEqual(
    ["annual", "semiannual", "valuations"].flatMap((k) => [`A|${k}`, `B|${k}`, `C|${k}`]).sort(),
  );
});

test("prices go out while the checks wait for the cells to be in", async () => {
  const h = harness(REVALIDATION_SETTLE_MS);
  h.revalidator.schedule(h.task("A", "annual"), "'Comps'!A1");
  h.revalidator.schedule(h.task("A", "prices"), "'Comps'!A2");
  await jest.advanceTimersByTimeAsync(500);
  expect(h.sent).toEqual(["A|prices"]);
  // The prices' read counted as a cell arriving: one more quiet period, then the check.
  await jest.advanceTimersByTimeAsync(2 * REVALIDATION_SETTLE_MS);
  expect(h.sent).toEqual(["A|prices", "A|annual"]);
});

test("a company whose check finds a change has its other answers asked too", async () => {
  const h = harness(REVALIDATION_SETTLE_MS, (key) => key === "B|quarterly");
  await openComps(h, ["A", "B"]);
  await jest.advanceTimersByTimeAsync(60_000);
  await h.revalidator.idle();
  expect(h.sent.filter((k) => k.startsWith("B|")).sort()).toEqual([
    "B|annual",
    "B|prices",
    "B|quarterly",
    "B|semiannual",
    "B|valuations",
  ]);
  expect(h.sent.filter((k) => k.startsWith("A|")).sort()).toEqual(["A|prices", "A|quarterly"]);
});

test("without a quiet time the first answer queued becomes the check and later ones cost more", async () => {
  // What the settle avoids: the annual is sent before the quarterly is even queued.
  const h = harness(0);
  await openComps(h, ["A"]);
  await jest.advanceTimersByTimeAsync(60_000);
  expect(h.sent[0]).toBe("A|annual");
  expect(h.sent.filter((k) => !k.endsWith("|prices")).length).toBeGreaterThan(1);
});

test("due answers queued without end do not hold the checks longer than 15 quiet periods", async () => {
  const h = harness(REVALIDATION_SETTLE_MS);
  h.revalidator.schedule(h.task("A", "quarterly"), "'Comps'!A1");
  // Another company's answer every second for two minutes: never quiet for two seconds.
  for (let i = 0; i < 120; i += 1) {
    h.revalidator.schedule(h.task(`X${i}`, "annual"), `'Model'!B${i + 1}`);
    await jest.advanceTimersByTimeAsync(1000);
    if (h.sent.includes("A|quarterly")) break;
  }
  expect(h.sent[0]).toBe("A|quarterly");
  // 15 periods of 2 s, give or take the second the last one started in.
  expect(Date.now() - Date.UTC(2026, 10, 25, 22, 0)).toBeLessThanOrEqual(32_000);
  expect(Date.now() - Date.UTC(2026, 10, 25, 22, 0)).toBeGreaterThanOrEqual(29_000);
});
