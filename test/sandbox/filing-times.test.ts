// A company's filing can be moved to another instant: its rows appear 24 hours after it, not before.
import { createApp } from "../../sandbox/app";
import { getDataset } from "../../sandbox/data";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { seasonFilingTimes, withFilingTimes } from "../../sandbox/lib/filing-times";

const auth = { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } };

async function quarters(app: ReturnType<typeof createApp>["app"]): Promise<string[]> {
  const res = await app.request("/v1/financials?security_code=7203&period=quarterly&years=2", auth);
  const body = (await res.json()) as { periods: { fiscal_year: string; quarter?: string }[] };
  return body.periods.map((p) => `${p.fiscal_year} ${p.quarter ?? ""}`);
}

test("a filing moved to a later night appears 24 hours after it, with its disclosure", async () => {
  const natural = createApp({ ratePerMinute: 0, now: "2026-11-20T09:00:00Z" });
  const latest = (await quarters(natural.app)).at(-1);
  // 7203 files its latest results at 16:00 JST on 12 November instead.
  const sandbox = createApp({
    ratePerMinute: 0,
    now: "2026-11-13T06:59:00Z",
    filingTimes: { "7203": "2026-11-12T07:00:00Z" },
  });
  const before = await quarters(sandbox.app);
  expect(before).not.toContain(latest);
  sandbox.setNow("2026-11-13T07:00:00Z");
  expect((await quarters(sandbox.app)).at(-1)).toBe(latest);
  const res = await sandbox.app.request(
    "/v1/securities/7203/disclosures?from=2026-11-12&to=2026-11-12",
    auth,
  );
  const listed = (await res.json()) as { disclosures?: { title: string; disclosed_at: string }[] };
  expect(listed.disclosures?.map((d) => d.disclosed_at)).toContain("2026-11-12T07:00:00Z");
});

test("companies not listed keep the dataset's filing times", async () => {
  const natural = createApp({ ratePerMinute: 0, now: "2026-11-20T09:00:00Z" });
  const moved = createApp({
    ratePerMinute: 0,
    now: "2026-11-20T09:00:00Z",
    filingTimes: { "7203": "2026-11-25T07:00:00Z" },
  });
  const other = "/v1/financials?security_code=6758&period=quarterly&years=2";
  const a = await (await natural.app.request(other, auth)).json();
  const b = await (await moved.app.request(other, auth)).json();
  expect(b).toEqual(a);
  expect((await quarters(moved.app)).length).toBe((await quarters(natural.app)).length - 1);
});

test("an earnings-season night: a tenth of the companies file then, the rest have filed before", () => {
  const dataset = getDataset();
  const codes = dataset.securities.map((s) => s.code).slice(0, 50);
  const night = "2026-11-11T07:00:00Z";
  const before = "2026-11-10T06:00:00Z";
  const { filers, times } = seasonFilingTimes(dataset, codes, 0.1, night, before);
  expect(filers).toHaveLength(5);
  for (const code of filers) expect(times[code]).toBe(night);
  const others = Object.entries(times).filter(([code]) => !filers.includes(code));
  expect(others.length).toBeGreaterThan(0);
  for (const [, at] of others) expect(at).toBe(before);
  // The filers' latest periods are recent (their filing window is open on the night).
  const filed = withFilingTimes(dataset, times);
  for (const code of filers) {
    const moved = filed.disclosures.filter(
      (d) => d.security_code === code && d.meta.disclosed_at === "2026-11-11T07:00:00Z",
    );
    expect(moved).toHaveLength(1);
    expect(moved[0]?.meta.available_for_redistribution_at).toBe("2026-11-12T07:00:00Z");
  }
});
