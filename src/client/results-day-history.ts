// The companies' expected results days as looked up: the stored year-earlier disclosures, else one background request each.

import { lifetimesMoved, type Lifetime } from "./freshness";
import { UNCOUNTED, type InFlightRequests } from "./inflight";
import type { QueueStatus } from "./pacer";
import { checkedDailyFromEnd, dailyChecksFrom, historyQuery } from "./results-day";
import type { Revalidator } from "./revalidator";
import type { RequestOptions, ResponseOf } from "./types";

type History = ResponseOf<"listSecurityDisclosures">;
type HistoryQuery = ReturnType<typeof historyQuery>;

/** What the look-up needs of the client (client.ts `resultsDayPort`). */
interface ResultsDayPort {
  /** The security code of an EDINET code, when an answer of the partition named both. */
  securityOf(partition: string, company: string): string | undefined;
  /** The stored answer to `query` when one is stored and fresh (no request); else undefined. */
  stored(query: HistoryQuery): Promise<History | undefined>;
  /**
   * Queues `fetch` in the background revalidation at its lowest priority, within its daily
   * budget (revalidator.ts `RevalidationTask.lowest`); `sent` counts the request as it leaves.
   */
  queue(company: string, key: string, fetch: (sent: () => void) => Promise<void>): void;
  /** Asks `query` (stored like any answer, so never twice while fresh). */
  fetch(query: HistoryQuery, sent: () => void): Promise<History>;
  /** An expected day of `company` changed: its lifetimes decided without it are decided again. */
  learned(company: string): void;
  /**
   * The look-up under `key`: the one under way, else `start` begun now, in the client's one map of
   * work under way (inflight.ts), so every read of a company's answers joins one look-up.
   */
  share(key: string, start: () => Promise<void>): Promise<void>;
}

/**
 * Per partition, company and awaited period: the instant from which the company is checked daily
 * (results-day.ts `dailyChecksFrom`; the period's end while its history is still to be fetched,
 * `checkedDailyFromEnd`), null for "the cadence" (its history predicts nothing), absent while not
 * looked up.
 */
export class ResultsDays {
  readonly #known = new Map<string, number | null>();

  constructor(private readonly port: ResultsDayPort) {}

  /** freshness.ts `CompanyKnowledge.dailyChecksFrom`: undefined until looked up. */
  dailyChecksFrom(partition: string, company: string, period: number): number | null | undefined {
    return this.#known.get(`${partition}|${company}|${period}`);
  }

  /**
   * Looks the day up once per session: the stored history (answers are kept like any other), else
   * daily checks from the period's end meanwhile and the request queued behind everything else in
   * the background. Never rejects: a failed look-up leaves the cadence.
   */
  lookUp(partition: string, company: string, period: number, security?: string): Promise<void> {
    const key = `${partition}|${company}|${period}`;
    if (this.#known.has(key)) return Promise.resolve();
    return this.port.share(`results-day\u0000${key}`, () =>
      this.#lookUp(key, partition, company, period, security).catch(() =>
        this.#settle(key, company, null),
      ),
    );
  }

  async #lookUp(
    key: string,
    partition: string,
    company: string,
    period: number,
    asked: string | undefined,
  ): Promise<void> {
    // openapi.json listSecurityDisclosures is asked by security code: the one the answer was
    // asked by, else the one an answer paired with the EDINET code (code-map.ts).
    const security = asked ?? this.port.securityOf(partition, company);
    if (security === undefined) return this.#settle(key, company, null);
    const query = historyQuery(security, period);
    const stored = await this.port.stored(query);
    if (stored !== undefined) return this.#settle(key, company, dailyChecksFrom(stored, period));
    // Until its history comes: daily, as if its results day had come (checkedDailyFromEnd).
    this.#settle(key, company, checkedDailyFromEnd(period));
    this.port.queue(company, `results-day ${key}`, async (sent) => {
      try {
        this.#settle(key, company, dailyChecksFrom(await this.port.fetch(query, sent), period));
      } catch {
        // Not found or failed: daily from the period's end until the next session asks again.
      }
    });
  }

  #settle(key: string, company: string, value: number | null): void {
    // The same day again (the fetched history agreeing with the stored one): nothing moves.
    if (this.#known.has(key) && this.#known.get(key) === value) return;
    this.#known.set(key, value);
    this.port.learned(company);
  }
}

/**
 * What the look-up reads of the client (client.ts `KaishaClient` has each): written out, not picked
 * from client.ts, since client.ts loads this module and an import back would close a cycle.
 */
interface HistoryClient {
  flights(): { work: InFlightRequests };
  request(
    operationId: "listSecurityDisclosures",
    params: HistoryQuery,
    options: RequestOptions,
  ): Promise<History>;
  knownCode(kind: "security_code", of: string): string | undefined;
  revalidation(): Revalidator;
  queueStatus(): QueueStatus;
  onQueueChange(listener: (s: QueueStatus) => void): () => void;
}

/** Histories waiting for the cells' requests to leave the pacer, per client (`whenQuiet`). */
const held = new WeakMap<HistoryClient, (() => void)[]>();

/**
 * Runs `queue` once no request waits in the pacer: a cold build's cells must not wait behind a
 * results-day history (each takes a turn at 60 a minute). The revalidation's `idle` waits for it.
 */
function whenQuiet(client: HistoryClient, queue: () => void): void {
  if (client.queueStatus().waiting === 0) return queue();
  let list = held.get(client);
  if (list === undefined) {
    const waiting: (() => void)[] = [];
    held.set(client, (list = waiting));
    let release = (): void => undefined;
    client.revalidation().expect(new Promise<void>((resolve) => (release = resolve)));
    const off = client.onQueueChange((s) => {
      if (s.waiting > 0) return;
      off();
      held.delete(client);
      for (const run of waiting.splice(0)) run();
      release();
    });
  }
  list.push(queue);
}

/**
 * Looks up the expected results day `life` awaits (freshness.ts `Lifetime.awaits`), with the
 * registry made on first use in `box` (the client's, client.ts `Core.resultsDays`). Kept here,
 * off the runtime page: the client only calls it, from the send chunk.
 */
export function lookUpFor(
  box: { now: Pick<ResultsDays, "dailyChecksFrom"> | undefined },
  client: HistoryClient,
  partition: string,
  life: Lifetime,
  params: Readonly<Record<string, unknown>>,
  body: unknown,
): Promise<void> {
  if (life.awaits === undefined || life.company === undefined) return Promise.resolve();
  // A box already holding something else (the code failing to load once) keeps the cadence.
  if (box.now !== undefined && !(box.now instanceof ResultsDays)) return Promise.resolve();
  const days = (box.now ??= new ResultsDays({
    securityOf: (_partition, company) => client.knownCode("security_code", company),
    stored: (q) =>
      client
        .request("listSecurityDisclosures", q, { cache: "only-if-cached" })
        .catch(() => undefined),
    queue: (company, key, fetch) =>
      whenQuiet(client, () =>
        client.revalidation().schedule({
          key,
          company,
          filing: false,
          lowest: true,
          rank: 0,
          refresh: (sent) => fetch(sent ?? (() => undefined)).then(() => false),
          touch: () => Promise.resolve(),
        }),
      ),
    fetch: (q, sent) => client.request("listSecurityDisclosures", q, { onSent: sent }),
    learned: (company) => lifetimesMoved(company),
    share: (key, start) => client.flights().work.begin(key, start, UNCOUNTED).answer,
  })) as ResultsDays;
  // The security code the disclosures are asked by: the one asked, else the answer's.
  const b = (body ?? {}) as { security_code?: unknown };
  const security = [params.security_code, params.code, b.security_code].find(
    (c): c is string => typeof c === "string",
  );
  return days.lookUp(partition, life.company, life.awaits, security);
}
