// Raw /financials answers of every sandbox company, read from a sandbox of their own (not the one the add-in's requests are counted on).
import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import type { RawAnswers, RawRow } from "./period-oracle";

const raw = createApp({ ratePerMinute: 0, dailyLimit: 1_000_000 });

async function get(path: string): Promise<Record<string, unknown>> {
  const res = await raw.app.request(path, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  return (await res.json()) as Record<string, unknown>;
}

/** The three answers of a company, asked as the add-in asks them (years=30, no as_of). */
export async function rawAnswers(code: string): Promise<RawAnswers> {
  const one = async (period: string): Promise<RawRow[]> =>
    ((await get(`/v1/financials?security_code=${code}&period=${period}&years=30`))["periods"] ??
      []) as RawRow[];
  return {
    annual: await one("annual"),
    quarterly: await one("quarterly"),
    semiannual: await one("semiannual"),
  };
}

/** Every listed code with financial periods (ETFs and REITs without an EDINET filer have none). */
export async function companiesWithFinancials(): Promise<string[]> {
  const list = (await get("/v1/securities?limit=500"))["securities"] as { code: string }[];
  const out: string[] = [];
  for (const { code } of list) {
    const body = await get(`/v1/financials?security_code=${code}&years=1`);
    if (Array.isArray(body["periods"]) && body["periods"].length > 0) out.push(code);
  }
  return out;
}
