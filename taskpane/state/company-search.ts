// Company search for the pane's company pickers: /securities?q= (openapi.json listSecurities) with
// a per-session memory, local narrowing of complete answers, and no request for text that cannot
// find anything.

import { optional, translator } from "../i18n/messages";
import { TSE33_INDUSTRIES } from "../../src/contract/tse-industries";
import type { Lang } from "../i18n/language";
import type { OkResponse } from "../../src/contract";
import type { PaneClient } from "./pane-client";
import { isEdinetCode } from "./contract-params";

/** One row of GET /securities (openapi.json SecurityListItem). */
export interface SecurityHit {
  code: string;
  name: string;
  market: string | null;
  industry: string;
}

/**
 * Rows asked per search: enough to choose from in a 350 px list, one small page (openapi.json
 * listSecurities limit 1..500).
 */
const SEARCH_LIMIT = 20;
/** Wait after the last keystroke before asking (the pacer's budget is 60 requests a minute). */
export const SEARCH_DEBOUNCE_MS = 350;
/** openapi.json listSecurities: q has at most 100 characters. */
const MAX_QUERY = 100;

/**
 * The text the API matches: NFKC (full-width digits and letters to ASCII, half-width kana to full
 * width), lower case, trimmed, as the service's partial match compares (sandbox lib/text-match).
 * @example searchKey(" ＴＯＹＯＴＡ ") // "toyota"
 */
export function searchKey(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim();
}

/**
 * Whether text is worth a request: one character of kanji or kana is a meaningful name fragment,
 * Latin letters and digits need two (a single digit or letter matches most of the market).
 */
export function searchable(key: string): boolean {
  if (key === "" || key.length > MAX_QUERY) return false;
  if (/[\u3040-\u30ff\u3400-\u9fff]/.test(key)) return true;
  return key.length >= 2;
}

/** A security code (4 characters, e.g. 7203 or 130A) or a 5-character code as users type it. */
export function isSecurityCode(text: string): boolean {
  return /^[0-9][0-9A-Z]{3}$/.test(text.normalize("NFKC").trim().toUpperCase());
}

/** An EDINET code (E + 5 digits; G for funds): /securities does not know them, so no search. */
export function isEdinetLike(text: string): boolean {
  return isEdinetCode(text.normalize("NFKC").trim().toUpperCase());
}

function parseHits(body: OkResponse<"listSecurities">): { hits: SecurityHit[]; complete: boolean } {
  const hits = body.securities.map((s) => ({
    code: s.code,
    name: s.name,
    market: s.market ?? null,
    industry: s.industry,
  }));
  return { hits, complete: body.next_cursor == null };
}

function matches(hit: SecurityHit, key: string): boolean {
  return searchKey(hit.name).includes(key) || hit.code.toLowerCase().includes(key);
}

/** Exact code first, then codes starting with the text, then the API's order (ascending code). */
function ranked(hits: readonly SecurityHit[], key: string): SecurityHit[] {
  const rank = (h: SecurityHit) => {
    const code = h.code.toLowerCase();
    if (code === key) return 0;
    if (code.startsWith(key)) return 1;
    if (searchKey(h.name).startsWith(key)) return 2;
    return 3;
  };
  return hits
    .map((h, i) => ({ h, i }))
    .sort((a, b) => rank(a.h) - rank(b.h) || a.i - b.i)
    .map((x) => x.h);
}

export interface SearchResult {
  hits: SecurityHit[];
  /** false when the API had more rows than SEARCH_LIMIT: the user should type more. */
  complete: boolean;
}

/**
 * Remembers every answer of a session by its search key. A longer text whose shorter prefix already
 * has a complete answer is narrowed locally (a partial match of the longer text is a partial match
 * of the shorter one), so typing on after a search costs nothing; only when narrowing finds nothing
 * is the API asked, in case the service matches more loosely than this filter.
 */
export class CompanySearch {
  private readonly answers = new Map<string, SearchResult>();
  /** Requests this search has sent (tests and the README's cost figure). */
  requests = 0;

  constructor(private readonly client: () => PaneClient) {}

  /** The answer already known for this text, without a request (undefined when one is needed). */
  known(text: string): SearchResult | undefined {
    const key = searchKey(text);
    const exact = this.answers.get(key);
    if (exact) return { hits: ranked(exact.hits, key), complete: exact.complete };
    for (let n = key.length - 1; n >= 1; n--) {
      const shorter = this.answers.get(key.slice(0, n));
      if (shorter?.complete) {
        const hits = shorter.hits.filter((h) => matches(h, key));
        if (hits.length > 0) return { hits: ranked(hits, key), complete: true };
      }
    }
    return undefined;
  }

  /** Searches by name or code; text that cannot find anything sends nothing and returns no hits. */
  async search(text: string, signal?: AbortSignal): Promise<SearchResult> {
    const key = searchKey(text);
    if (!searchable(key)) return { hits: [], complete: true };
    const known = this.known(text);
    if (known) return known;
    // One request per search key, shared through the client's sharing layer
    // (src/client/answer-flights.ts): keystrokes that read the same key wait for the same answer.
    const client = this.client();
    const flight = client.flights().begin("listSecurities", { q: key, limit: SEARCH_LIMIT }, () => {
      this.requests++;
      return client
        .securities({ q: text.normalize("NFKC").trim(), limit: SEARCH_LIMIT })
        .then((body) => {
          this.answers.set(key, parseHits(body));
          return body;
        });
    });
    // A newer keystroke abandons waiting, not the request: its answer is kept for later.
    const body = await (signal ? raceAbort(flight.answer, signal) : flight.answer);
    const result = this.answers.get(key) ?? parseHits(body);
    return { hits: ranked(result.hits, key), complete: result.complete };
  }

  /** The company with exactly this security code, when a search has seen it. */
  byCode(code: string): SecurityHit | undefined {
    const c = code.normalize("NFKC").trim().toUpperCase();
    for (const r of this.answers.values()) {
      const hit = r.hits.find((h) => h.code.toUpperCase() === c);
      if (hit) return hit;
    }
    return undefined;
  }

  clear(): void {
    this.answers.clear();
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new DOMException("aborted", "AbortError"));
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * How a company reads in the pickers: "7203 トヨタ自動車 · 輸送用機器 · プライム"; the English pane
 * names the industry and the market in English ("Transportation Equipment · Prime").
 */
export function hitText(hit: SecurityHit, lang: Lang): string {
  const named = TSE33_INDUSTRIES.find((i) => i.ja === hit.industry);
  const industry = lang === "en" && named ? named.en : hit.industry;
  // openapi.json SecurityListItem.market: Prime, Standard, Growth; the pane's lists name them so.
  const market = hit.market ? optional(translator(lang), `opt_${hit.market}`, hit.market) : "";
  return [`${hit.code} ${hit.name}`, industry, market].filter((p) => p !== "").join(" · ");
}

const searches = new WeakMap<object, CompanySearch>();

/** One search memory per pane session, shared by Import, Company sheet and the builder. */
export function companySearchFor(session: {
  client(): PaneClient;
  onChange(l: () => void): () => void;
}): CompanySearch {
  let search = searches.get(session);
  if (!search) {
    const created = new CompanySearch(() => session.client());
    // Another server or key may list other companies: forget what was found before.
    session.onChange(() => created.clear());
    searches.set(session, created);
    search = created;
  }
  return search;
}
