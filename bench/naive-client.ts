// The benchmark's baseline: a naive add-in that sends one request per cell, with no coalescing and no cache.
import { Pacer } from "../src/client";
import { ltmKind } from "../src/excel/ltm-kind";

export interface NaiveClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  /**
   * Requests per rolling minute, paced with the add-in's own Pacer (src/client/pacer.ts) so both
   * sides get the same allowance. The baseline must honour the limit or it would only collect
   * 429s; 0 = no pacing.
   */
  ratePerMinute: number;
  /**
   * The fair per-cell baseline: an identical URL is asked once (its answer remembered), and
   * paged lists ask the API's largest page (openapi.json: prices 500, screening 100). @default
   * false
   */
  fair?: boolean;
  /**
   * Every /financials request asks this many years instead of just the years the cell needs (a
   * per-cell client written with one fixed `years`: with `fair`, one URL per company and period
   * type, the honest comparison for the add-in's one widest request). @default undefined
   */
  fixedYears?: number;
}

type Query = Record<string, string | number | undefined>;
type Json = Record<string, unknown>;

/** A cell answer: a scalar, a 2-D array, or an error text standing in for #N/A. */
export type NaiveCell = number | string | null | (number | string | null)[][];

/**
 * The naive baseline: fetches exactly what each cell asks, every time.
 * @example const naive = createNaiveClient({ baseUrl, apiKey, fetch, ratePerMinute: 600 });
 *          await naive.financial("7203", "sales", -1);
 */
export function createNaiveClient(options: NaiveClientOptions) {
  const pacer = new Pacer({ ratePerMinute: options.ratePerMinute });
  let requestsSent = 0;
  const remembered = new Map<string, Promise<Json>>();
  const pageLimit = (max: number): number | undefined => (options.fair === true ? max : undefined);
  const yearsFor = (needed: number): number => options.fixedYears ?? needed;

  async function pace(): Promise<void> {
    // Spent at once: the naive baseline sends right after the grant.
    const permit = await pacer.acquire();
    permit.sent();
    permit.done();
  }

  async function get(path: string, query: Query = {}): Promise<Json> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) search.set(name, String(value));
    }
    const qs = search.toString();
    const url = `${options.baseUrl}${path}${qs === "" ? "" : `?${qs}`}`;
    if (options.fair === true) {
      let answer = remembered.get(url);
      if (answer === undefined) {
        answer = send(url);
        remembered.set(url, answer);
      }
      return answer;
    }
    return send(url);
  }

  async function send(url: string): Promise<Json> {
    for (let attempt = 0; ; attempt += 1) {
      await pace();
      requestsSent += 1;
      const response = await options.fetch(url, {
        headers: { Authorization: `Bearer ${options.apiKey}` },
      });
      // A naive client still has to finish: wait as told on 429 and try again (bounded).
      if (response.status === 429 && attempt < 5) {
        const seconds = Number(response.headers.get("Retry-After") ?? "1");
        await response.arrayBuffer();
        await sleep(Math.max(1, seconds) * 1000);
        continue;
      }
      const body = (await response.json()) as Json;
      if (!response.ok) {
        const error = body["error"] as { message?: string } | undefined;
        throw new Error(error?.message ?? `HTTP ${response.status}`);
      }
      return body;
    }
  }

  async function pages(path: string, query: Query, listKey: string): Promise<Json[]> {
    const rows: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(path, { ...query, cursor });
      rows.push(...((page[listKey] as Json[] | undefined) ?? []));
      const next = page["next_cursor"];
      cursor = typeof next === "string" && next !== "" ? next : undefined;
    } while (cursor !== undefined);
    return rows;
  }

  return {
    get,
    /** Requests sent so far (429 retries included). */
    get requestsSent(): number {
      return requestsSent;
    },

    /** FINANCIAL(code, item, relative): asks /financials for exactly the years the cell needs. */
    async financial(code: string, item: string, relative: number): Promise<NaiveCell> {
      const back = Math.abs(relative);
      const body = await get("/financials", {
        security_code: code,
        period: "annual",
        years: yearsFor(back + 1),
      });
      const periods = (body["periods"] as Json[] | undefined) ?? [];
      const period = periods[periods.length - 1 - back];
      const value = period?.[item];
      return typeof value === "number" ? value : null;
    },

    /**
     * A FINANCIAL cell of the scale workloads, asked as a per-cell add-in would: exactly the
     * years it needs, of its period type (LTM: quarterly, one year more for four quarters).
     */
    async financialCell(
      code: string,
      item: string,
      back: number,
      kind: "annual" | "quarterly" | "ltm" | "units" | "fixed",
    ): Promise<NaiveCell> {
      const period = kind === "quarterly" || kind === "ltm" ? "quarterly" : "annual";
      const body = await get("/financials", {
        security_code: code,
        period,
        years: yearsFor(back + (kind === "ltm" ? 2 : 1)),
      });
      const periods = (body["periods"] as Json[] | undefined) ?? [];
      // LTM of an item disclosed only half-yearly (null in quarterly rows): the halves, as the
      // add-in does (openapi.json getFinancials), from one semiannual request.
      const recent = periods.slice(-4);
      if (kind === "ltm" && ltmKind(item) === "flow" && recent.some((p) => p[item] === null)) {
        await get("/financials", {
          security_code: code,
          period: "semiannual",
          years: yearsFor(back + 2),
        });
      }
      const value = periods[periods.length - 1]?.[item];
      return typeof value === "number" ? value : null;
    },

    /** VALUATION(code, fields): the history, newest first, one row per fiscal year. */
    async valuation(code: string, fields: readonly string[]): Promise<NaiveCell> {
      const body = await get("/valuations", { security_code: code });
      const history = (body["history"] as Json[] | undefined) ?? [];
      return [
        ["fiscal_year", ...fields],
        ...history.map((row) => [
          String(row["fiscal_year"]),
          ...fields.map((f) => (typeof row[f] === "number" ? (row[f] as number) : null)),
        ]),
      ];
    },

    /** PRICES(code, from, to): follows every cursor at the API's default page size. */
    async prices(
      code: string,
      from: string,
      to: string,
      fields: readonly string[],
    ): Promise<NaiveCell> {
      const rows = await pages(
        `/securities/${encodeURIComponent(code)}/prices`,
        { from, to, limit: pageLimit(500) },
        "prices",
      );
      return [
        ["date", ...fields],
        ...rows.map((row) => [
          String(row["date"]),
          ...fields.map((f) => (typeof row[f] === "number" ? (row[f] as number) : null)),
        ]),
      ];
    },

    /** Every page of a screen at the API's default page size. */
    async screenAll(query: Query): Promise<Json[]> {
      return await pages("/screening", query, "securities");
    },

    /** A daily price import over a date range at the API's default page size. */
    async importPrices(code: string, from: string, to: string): Promise<Json[]> {
      return await pages(`/securities/${encodeURIComponent(code)}/prices`, { from, to }, "prices");
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
