// Learns the workload's facts from an unmetered sandbox before anything is measured: companies,
// dates, page counts (for the floors) and the expected FINANCIAL values (the oracle).
import { createApp } from "../sandbox/app";
import { DEMO_API_KEY } from "../sandbox/demo-key";

type Json = Record<string, unknown>;

/** openapi.json getPrices: the largest page. */
export const PRICES_PAGE_MAX = 500;
/** openapi.json getScreening: the largest page. */
export const SCREENING_PAGE_MAX = 100;
/**
 * openapi.json getPrices, getScreening `limit`: default page sizes, what a naive client that names
 * no limit gets.
 */
export const PRICES_PAGE_DEFAULT = 100;
export const SCREENING_PAGE_DEFAULT = 30;

export interface Facts {
  /** Operating companies (primary securities with financials), ascending by code. */
  codes: string[];
  /** Listed securities in the dataset. */
  securitiesListed: number;
  /** Their codes (bench aliases must not collide with them). */
  listedCodes: string[];
  /** EDINET code of each operating company. */
  edinetOf: Map<string, string>;
  /** The newest trading days of `importCode` (newest first) with their closes, up to 250. */
  recentCloses: { date: string; close: number | null }[];
  /** Latest trading day, YYYY-MM-DD. */
  lastTradingDay: string;
  pricesFrom5y: string;
  /** Trading days of each company's five-year window. */
  priceRows5y: Map<string, number>;
  importCode: string;
  importFrom: string;
  importRows: number;
  screenQuery: Record<string, string>;
  screenTotal: number;
  /** code -> annual periods (oldest first) as the API answers years=30. */
  annual: Map<string, Json[]>;
}

function minusYears(iso: string, years: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y - years, m - 1, d + 1));
  return date.toISOString().slice(0, 10);
}

/** Reads everything the benchmark needs to know about the dataset, unmetered. */
export async function probe(maxCompanies: number): Promise<Facts> {
  const { app } = createApp({ ratePerMinute: 0, dailyLimit: 1_000_000_000 });
  const get = async (path: string): Promise<Json> => {
    const response = await app.request(`http://probe.local/v1${path}`, {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    const body = (await response.json()) as Json;
    return response.ok ? body : { error: body["error"], status: response.status };
  };
  const countRows = async (path: string, key: string): Promise<number> => {
    let rows = 0;
    let cursor: unknown = null;
    do {
      const sep = path.includes("?") ? "&" : "?";
      const page = await get(
        `${path}${typeof cursor === "string" ? `${sep}cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      rows += ((page[key] as unknown[] | undefined) ?? []).length;
      cursor = page["next_cursor"];
    } while (typeof cursor === "string" && cursor !== "");
    return rows;
  };

  const listed: string[] = [];
  let cursor: unknown = null;
  do {
    const page = await get(
      `/securities?limit=500${typeof cursor === "string" ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    for (const s of (page["securities"] as Json[] | undefined) ?? [])
      listed.push(String(s["code"]));
    cursor = page["next_cursor"];
  } while (typeof cursor === "string" && cursor !== "");

  const annual = new Map<string, Json[]>();
  const edinetOf = new Map<string, string>();
  const codes: string[] = [];
  for (const code of listed) {
    if (codes.length >= maxCompanies) break;
    const body = await get(`/financials?security_code=${code}&period=annual&years=30`);
    const periods = body["periods"] as Json[] | undefined;
    if (periods !== undefined && periods.length >= 10) {
      codes.push(code);
      annual.set(code, periods);
      if (typeof body["edinet_code"] === "string") edinetOf.set(code, body["edinet_code"]);
    }
  }
  const first = codes[0];
  if (first === undefined) throw new Error("The sandbox dataset has no operating company.");

  const latest = await get(`/securities/${first}/prices?limit=1`);
  const lastTradingDay = String(((latest["prices"] as Json[])[0] ?? {})["date"]);
  const pricesFrom5y = minusYears(lastTradingDay, 5);
  const priceRows5y = new Map<string, number>();
  for (const code of codes) {
    priceRows5y.set(
      code,
      await countRows(
        `/securities/${code}/prices?from=${pricesFrom5y}&to=${lastTradingDay}&limit=${PRICES_PAGE_MAX}`,
        "prices",
      ),
    );
  }
  const importCode = codes.includes("7203") ? "7203" : first;
  const importFrom = minusYears(lastTradingDay, 10);
  const importRows = await countRows(
    `/securities/${importCode}/prices?from=${importFrom}&to=${lastTradingDay}&limit=${PRICES_PAGE_MAX}`,
    "prices",
  );

  const recent = await get(`/securities/${importCode}/prices?to=${lastTradingDay}&limit=250`);
  const recentCloses = ((recent["prices"] as Json[] | undefined) ?? []).map((p) => ({
    date: String(p["date"]),
    close: typeof p["close"] === "number" ? p["close"] : null,
  }));

  const catalog = await get("/screening/fields");
  const numeric = ((catalog["fields"] as Json[] | undefined) ?? []).filter(
    (f) => f["type"] === "numeric",
  );
  const sortBy = numeric.some((f) => f["key"] === "marketCap")
    ? "marketCap"
    : String(numeric[0]?.["key"]);
  const screenQuery = { sort_by: sortBy };
  const screen = await get(`/screening?sort_by=${sortBy}&limit=1`);
  const screenTotal = Number(screen["total_count"] ?? 0);

  return {
    codes,
    securitiesListed: listed.length,
    listedCodes: listed,
    edinetOf,
    recentCloses,
    lastTradingDay,
    pricesFrom5y,
    priceRows5y,
    importCode,
    importFrom,
    importRows,
    screenQuery,
    screenTotal,
    annual,
  };
}

/**
 * The value FINANCIAL(code, item, relative) must show: the period `relative` years before the
 * latest annual one; null (an empty cell) when the item is undisclosed.
 */
export function expectedFinancial(
  facts: Facts,
  code: string,
  item: string,
  relative: number,
): number | null | undefined {
  const periods = facts.annual.get(code);
  if (periods === undefined) return undefined;
  const period = periods[periods.length - 1 + relative];
  if (period === undefined) return undefined;
  const value = period[item];
  return typeof value === "number" ? value : null;
}
