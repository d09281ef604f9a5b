// Background revalidation: answers served at once while due are asked again behind the cells, company by company.

import { nextJstMidnight } from "./freshness";
import { todayJst } from "../util/normalize";
import { spentDaysOf, spentRecordOf, type SpentRecord } from "./spent-days";
/**
 * One due answer to ask again. The client builds these (client.ts `serveWhileRevalidating`); the
 * revalidator decides when, in which order and whether a request is worth it.
 */
export interface RevalidationTask {
  /** The cache key (dedupes: one task per answer however many cells read it). */
  key: string;
  /** Tasks of one company are grouped (freshness.ts `Lifetime.company`). */
  company: string | undefined;
  /**
   * On the filing calendar: a company's filing answers are checked through one of them first (the
   * highest `rank`); when it comes back unchanged, the company has filed nothing and the others are
   * kept as they are (`touch`) without a request.
   */
  filing: boolean;
  rank: number;
  /**
   * Sent after everything else due, within the daily budget: a company's disclosures that predict
   * its results day (src/client/results-day-history.ts). Lowest because it only sharpens when
   * later checks are sent: a price or a filing check shows the analyst a figure, this does not,
   * and until it comes the company keeps the filing-window cadence. Fetched once: its answer is
   * stored for a year (freshness.ts), and the look-up reads the store before queuing it again.
   */
  lowest?: boolean;
  /**
   * When the stored answer was received (its `storedAt`): the longer an answer has waited, the
   * sooner it is asked when the daily budget cannot cover everything due. Undefined: queue order.
   * @unit ms since the epoch
   */
  storedAt?: number | undefined;
  /**
   * Sends the request (through the pacer); true when the answer differs from the one stored.
   * `sent` is called as each request leaves (a re-based price window's every page), so the daily
   * budget counts requests, not tasks; a task that never calls it counts as one request.
   */
  refresh(sent?: () => void): Promise<boolean>;
  /** Keeps the stored answer as if received now (its company's check came back unchanged). */
  touch(): Promise<void>;
}

/** What the pane shows: "updating 37 companies, 4 min left". */
export interface RevalidationStatus {
  /** Companies (or single answers without one) with work left. */
  companies: number;
  /** Requests still to send at most (a company's other answers only if its check finds a change). */
  requests: number;
  inFlight: number;
  /** Requests left times the pacer's interval. @unit ms */
  estimatedMs: number;
  /**
   * "user" (Pause), "budget" (the daily budget is spent), "limit" (the API's daily limit) or
   * "key" (the key was refused) while the key is held (send-state.ts), or undefined while running.
   */
  paused: "user" | "budget" | "limit" | "key" | undefined;
  /** Background requests allowed per JST day; undefined = no limit. */
  dailyBudget: number | undefined;
  /** Background requests sent today (JST), those of an earlier session today included (`ledger`). */
  spentToday: number;
  /** Answers that came back changed since the session started. */
  changed: number;
  /**
   * Companies whose cells show a filing answer marked stale (its results can be out) that no
   * check has covered yet: "3 companies not yet checked since results were due". Their cells
   * keep the mark until a check, today or after the budget's next JST midnight.
   */
  unchecked: number;
}

export interface RevalidatorOptions {
  now: () => number;
  /** The pacer's spacing between requests (60/min: 1000). @unit ms */
  intervalMs: () => number;
  /** Background requests in flight at once (the pacer spaces them anyway). @default 2 */
  concurrency?: number;
  /**
   * Background requests per JST day; null = no limit. @default DEFAULT_DAILY_BUDGET (undefined
   * gives the default)
   */
  dailyBudget?: number | null | undefined;
  /**
   * Where today's count is kept across sessions (the pane's storage): a workbook reopened the same
   * JST day continues its count instead of getting a fresh budget. @default none (memory only)
   */
  ledger?: BudgetLedger | undefined;
  /**
   * Quiet time before companies' filing checks are chosen: a workbook's cells arrive in batches
   * over seconds, and a company's answers are queued as its cells come (its annual cells long
   * before its quarterly ones in a comparables sheet). Checking at once would send the annual
   * as the company's check and then the quarterly as another; waiting until no filing answer has
   * been queued for this long lets one check (the highest rank) cover the company. Prices and
   * other tasks are sent meanwhile. @default 0 (checks start as soon as queued) @unit ms
   */
  settleMs?: number;
  /**
   * Waits `ms` (the client's sleep: virtual in the bench, faked in tests); rejects when `signal`
   * aborts. @default setTimeout
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Why the current key sends nothing now (send-state.ts), else undefined: nothing is started and
   * nothing counted meanwhile; a task refused by it unsent stays queued and its count is given back.
   * Call `sendingChanged()` when it changes. @default never held
   */
  held?: () => "daily_limit" | "key_refused" | undefined;
  /**
   * True for a failure the cells must see (an answer refused by the contract check): the stored
   * answer is then served marked with it until the key is asked again (`failure`), and the cells
   * showing it are recalculated to show the mark. @default none
   */
  shown?: (err: unknown) => boolean;
}

export type { SpentRecord };

/** Keeps the days' `SpentRecord` (the pane's storage in the add-in, a variable in tests). */
export interface BudgetLedger {
  load(): SpentRecord | undefined;
  save(record: SpentRecord): void;
}

/**
 * Background requests per JST day unless the user sets another number (or no limit). The
 * product's target: a 500-company model costs at most 800 background requests on any day, even
 * early in October when every unfiled company's answers are due again each JST midnight (~500
 * filing checks + ~500 latest-price pages). Work the budget cannot cover waits for the next day,
 * oldest first (see `nextStep`).
 */
export const DEFAULT_DAILY_BUDGET = 800;

/**
 * A company's filing check that has waited this long (since its answer was stored) goes ahead of
 * the prices: prices are preferred within the budget, but a model with more price rows than the
 * budget must not starve its filing checks for ever. @unit ms
 */
const CHECK_STARVED_AFTER_MS = 2 * 86_400_000;

/** A failed revalidation is not tried again for this long (cells keep the stored answer). @unit ms */
const RETRY_FAILED_AFTER_MS = 10 * 60_000;

interface Group {
  id: string;
  /** Filing tasks not yet done, the company's check first once chosen. */
  filing: RevalidationTask[];
  /** Tasks that are always sent (prices, answers off the calendar, a company found changed). */
  own: RevalidationTask[];
  /** The filing check is in flight: the rest of `filing` waits for its outcome. */
  checking: boolean;
  /** A cell of the sheet on screen (`prioritize`) shows one of its answers: sent first. */
  focused: boolean;
}

/** `blocked` value of a key the user canceled: not queued again until Resume. */
const CANCELED = Number.POSITIVE_INFINITY;
/**
 * The add-in's quiet time before companies' checks (`settleMs`): Excel hands a reopened workbook's
 * cells to the runtime in batches well under a second apart, so 2 s of no new due answer means
 * the open's cells are in. Costs nothing: prices are sent meanwhile, and the pacer spaces the
 * checks a second apart anyway. @unit ms
 */
export const REVALIDATION_SETTLE_MS = 2_000;

/**
 * Quiet periods waited at most before checks start anyway (a steady trickle of due answers, e.g. a
 * long recalculation, must not hold every company's check for ever): 15 × 2 s = 30 s.
 */
const MAX_SETTLE_ROUNDS = 15;

/**
 * The queue of due answers. Order: the companies of the sheet on screen (`prioritize`) first, then
 * the others, the answer waiting longest first (`nextStep`). Pause, Cancel and a daily budget
 * (`DEFAULT_DAILY_BUDGET`, rolled over at JST midnight, kept in `ledger`) are the user's.
 *
 * @example const r = new Revalidator({ now: Date.now, intervalMs: () => 1000 }); r.schedule(task, "Sheet1!B2");
 */
export class Revalidator {
  private readonly groups = new Map<string, Group>();
  private readonly queued = new Map<string, RevalidationTask>();
  private readonly readers = new Map<string, Set<string>>();
  /** Readers shown the answer marked stale: recalculated when it is revalidated, changed or not. */
  private readonly marked = new Map<string, Set<string>>();
  /** Keys not to queue again before this instant (failed, or canceled by the user). */
  private readonly blocked = new Map<string, number>();
  /** A blocked key's failure the cells are shown (`RevalidatorOptions.shown`). */
  private readonly failures = new Map<string, unknown>();
  /** Bodies served while due, to their key (a shared fetch's cells report their reads by body). */
  private readonly served = new WeakMap<object, string>();
  private readonly statusListeners = new Set<(s: RevalidationStatus) => void>();
  private readonly recalcListeners = new Set<(addresses: string[]) => void>();
  private inFlight = 0;
  private userPaused = false;
  private budget: number | undefined;
  private spent = 0;
  /** The JST day `spent` counts ("2026-10-05"); undefined before the first look. */
  private spentDay: string | undefined;
  /** Every kept day's count (spent-days.ts), `spentDay`'s as of its last look. */
  private readonly spentDays = new Map<string, number>();
  /** The wake-up at the next JST midnight (paused by the budget with work left), to call off. */
  private rollover: AbortController | undefined;
  private changedCount = 0;
  private notifyQueued = false;
  /** The sheet on screen (`prioritize`), applied to companies queued later too. */
  private focus: ((address: string) => boolean) | undefined;
  /** Cells' reads of due answers so far (the quiet wait compares it before and after a period). */
  private dueReads = 0;
  /** A quiet wait is under way (`settleMs`): companies' checks are not chosen meanwhile. */
  private settling = false;
  /** Work that may queue tasks when it settles (`expect`): `idle` waits for it too. */
  private readonly coming = new Set<Promise<unknown>>();

  constructor(private readonly options: RevalidatorOptions) {
    this.budget = budgetOf(options.dailyBudget);
  }

  /**
   * Queues `task` unless its key is queued, in flight, or blocked; records `reader` (a cell
   * address) as showing the answer, `marked` when it was shown marked stale.
   */
  schedule(task: RevalidationTask, reader?: string, marked = false): void {
    // A cell read a due answer: the open's cells are still arriving (the quiet wait).
    if (task.lowest !== true) this.dueReads += 1;
    if (reader !== undefined) this.noteReader(task.key, reader, marked);
    if (this.queued.has(task.key)) return;
    const until = this.blocked.get(task.key);
    if (until !== undefined && this.options.now() < until) return;
    this.blocked.delete(task.key);
    this.failures.delete(task.key);
    this.queued.set(task.key, task);
    const id = task.company ?? task.key;
    let group = this.groups.get(id);
    if (group === undefined) {
      group = { id, filing: [], own: [], checking: false, focused: false };
      this.groups.set(id, group);
    }
    (task.filing ? group.filing : group.own).push(task);
    if (reader !== undefined && !group.focused && this.focus?.(reader) === true)
      group.focused = true;
    if (task.filing) this.unsettle();
    this.changedStatus();
    this.pump();
  }

  /**
   * A filing task was queued: checks wait until no cell has read a due answer for `settleMs`
   * (every cell of the open that shows one counts, not only the first per answer: a comparables
   * sheet reads each company's annual answer for many columns before its quarterly).
   */
  private unsettle(): void {
    const quietMs = this.options.settleMs ?? 0;
    if (quietMs <= 0 || this.settling) return;
    this.settling = true;
    void this.awaitQuiet(quietMs);
  }

  private async awaitQuiet(quietMs: number): Promise<void> {
    const sleep =
      this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let round = 1; round <= MAX_SETTLE_ROUNDS; round += 1) {
      const seen = this.dueReads;
      await sleep(quietMs).catch(() => undefined);
      if (this.dueReads === seen) break;
    }
    this.settling = false;
    this.changedStatus();
    this.pump();
  }

  /** Remembers which body object was served for `key` (so `noteServed` can find the key). */
  /** The failure of `key`'s last refresh the cells are shown while it is not asked again. */
  failure(key: string): unknown {
    const until = this.blocked.get(key);
    return until !== undefined && this.options.now() < until ? this.failures.get(key) : undefined;
  }

  rememberServed(body: unknown, key: string): void {
    if (body !== null && typeof body === "object") this.served.set(body, key);
  }

  /** A cell showed `body`: when it was served while due, the cell is recalculated if it changes. */
  noteServed(body: unknown, reader: string | undefined, marked = false): void {
    if (reader === undefined || body === null || typeof body !== "object") return;
    const key = this.served.get(body);
    if (key !== undefined) this.dueReads += 1;
    if (key !== undefined && this.queued.has(key)) this.noteReader(key, reader, marked);
  }

  private noteReader(key: string, reader: string, marked: boolean): void {
    let set = this.readers.get(key);
    if (set === undefined) this.readers.set(key, (set = new Set()));
    set.add(reader);
    const task = this.queued.get(key);
    if (task !== undefined && this.focus !== undefined) {
      // Every cell of a morning open passes here: no address is parsed once its group is focused.
      const group = this.groups.get(task.company ?? task.key);
      if (group !== undefined && !group.focused && this.focus(reader)) group.focused = true;
    }
    if (marked) {
      let m = this.marked.get(key);
      if (m === undefined) this.marked.set(key, (m = new Set()));
      m.add(reader);
    }
  }

  /**
   * The sheet on screen first: companies any of whose cells pass `test` (an address such as
   * "'Sheet 1'!B2") are sent before all others, those queued already and those queued later,
   * until the next call (another sheet activated) replaces `test`; undefined: queue order only.
   */
  prioritize(test: ((address: string) => boolean) | undefined): void {
    this.focus = test;
    for (const group of this.groups.values()) {
      const tasks = [...group.filing, ...group.own];
      group.focused =
        test !== undefined && tasks.some((t) => [...(this.readers.get(t.key) ?? [])].some(test));
    }
  }

  pause(): void {
    this.userPaused = true;
    this.changedStatus();
  }

  /** The key's send state changed (`held`): a lifted hold restarts sending, a new one shows. */
  sendingChanged(): void {
    this.changedStatus();
    this.pump();
  }

  resume(): void {
    this.userPaused = false;
    for (const [key, until] of this.blocked) if (until === CANCELED) this.blocked.delete(key);
    this.changedStatus();
    this.pump();
  }

  /**
   * Drops every queued task (in-flight ones finish); the cells keep what they show. Nothing is
   * queued again this session until `resume()` (Refresh all still asks everything).
   */
  cancel(): number {
    const dropped = this.queued.size - this.inFlight;
    this.dropQueued((key) => this.blocked.set(key, CANCELED));
    return Math.max(0, dropped);
  }

  /** Background requests per JST day; null for no limit, undefined for `DEFAULT_DAILY_BUDGET`. */
  setDailyBudget(budget: number | null | undefined): void {
    this.budget = budgetOf(budget);
    this.changedStatus();
    this.pump();
  }

  /**
   * Refresh all: drops every queued task (in-flight ones finish) without blocking its key, since
   * the cells are about to ask everything anew; their later due answers are queued as usual.
   * Without it the queue would send `reload` requests for answers just fetched.
   */
  clear(): void {
    this.dropQueued(() => undefined);
  }

  /** Empties the queue (in-flight tasks finish), calling `dropped` with each key taken out. */
  private dropQueued(dropped: (key: string) => void): void {
    for (const group of this.groups.values()) {
      for (const t of [...group.filing, ...group.own]) {
        dropped(t.key);
        this.queued.delete(t.key);
        this.readers.delete(t.key);
        this.marked.delete(t.key);
      }
      group.filing = [];
      group.own = [];
    }
    this.prune();
    this.disarmRollover();
    this.changedStatus();
  }

  status(): RevalidationStatus {
    let requests = 0;
    let unchecked = 0;
    for (const g of this.groups.values()) {
      requests += g.own.length + (g.checking ? 0 : Math.min(1, g.filing.length));
      if ([...g.filing, ...g.own].some((t) => t.filing && this.marked.has(t.key))) unchecked += 1;
    }
    // One look at today's count (budgetSpent rolls the day and reads the kept count).
    const spent = this.budgetSpent();
    const held = this.options.held?.();
    return {
      companies: this.groups.size,
      requests,
      inFlight: this.inFlight,
      estimatedMs: requests * this.options.intervalMs(),
      // Paused by the budget only while something waits for it (not when the last request of
      // the day is merely in flight, nor with nothing queued).
      paused: this.userPaused
        ? "user"
        : held !== undefined && this.queued.size > 0
          ? HELD_PAUSE[held]
          : spent && this.queued.size > this.inFlight
            ? "budget"
            : undefined,
      dailyBudget: this.budget,
      spentToday: this.spent,
      changed: this.changedCount,
      unchecked,
    };
  }

  /** Status changes (coalesced per microtask turn); returns unsubscribe. */
  onStatus(listener: (s: RevalidationStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Cells to recalculate (their answer changed, or they show it marked stale); returns unsubscribe. */
  onRecalculate(listener: (addresses: string[]) => void): () => void {
    this.recalcListeners.add(listener);
    return () => this.recalcListeners.delete(listener);
  }

  /**
   * `work` may queue tasks when it settles (a results-day look-up reading the store, client.ts
   * `resultsDayFor`): `idle` does not resolve before it has.
   */
  expect(work: Promise<unknown>): void {
    // A set, not a chain: a reopen's cells may hand the same look-up thousands of times.
    const settled = work.catch(() => undefined).finally(() => this.coming.delete(settled));
    this.coming.add(settled);
  }

  /** Resolves when nothing is queued or in flight (or the queue is paused). Tests and bench. */
  async idle(): Promise<void> {
    do {
      await Promise.all(this.coming);
      while (this.inFlight > 0 || (this.queued.size > 0 && this.status().paused === undefined)) {
        await new Promise<void>((resolve) => {
          const off = this.onStatus(() => {
            off();
            resolve();
          });
        });
      }
    } while (this.coming.size > 0);
  }

  private budgetSpent(): boolean {
    this.rollDay();
    return this.budget !== undefined && this.spent >= this.budget;
  }

  /**
   * Today (JST) and its count: a new day starts at 0; the kept count is read at each look, so an
   * earlier session today and another workbook open now (the same computer's ledger) spend the
   * one budget with this one instead of each counting from its own start.
   */
  private rollDay(): string {
    const day = todayJst(this.options.now());
    if (day !== this.spentDay) {
      // Each day keeps its count: a clock set back a day and forward again finds it again.
      if (this.spentDay !== undefined) this.spentDays.set(this.spentDay, this.spent);
      this.spentDay = day;
      this.spent = this.spentDays.get(day) ?? 0;
    }
    try {
      for (const [d, n] of spentDaysOf(this.options.ledger?.load()))
        this.spentDays.set(d, Math.max(this.spentDays.get(d) ?? 0, n));
      this.spent = Math.max(this.spent, this.spentDays.get(day) ?? 0);
    } catch {
      // No storage: today's count is this session's.
    }
    return day;
  }

  /** One more background request left today: counted and kept (a reopen continues from it). */
  private count(by = 1): void {
    const day = this.rollDay();
    this.spent = Math.max(0, this.spent + by);
    this.spentDays.set(day, this.spent);
    const record = spentRecordOf(day, this.spentDays);
    try {
      this.options.ledger?.save(record);
    } catch {
      // Storage full or refused: the count holds for this session.
    }
  }

  /**
   * Paused by the budget with work left: sending restarts by itself at the next JST midnight (the
   * injected sleep, so the bench's virtual clock and fake timers move it). Re-armed when woken
   * early (a clock that moved back).
   */
  private armRollover(): void {
    if (this.rollover !== undefined) return;
    const wake = new AbortController();
    this.rollover = wake;
    const now = this.options.now();
    const midnight = nextJstMidnight(now);
    const sleep = this.options.sleep ?? timerSleep;
    void sleep(Math.max(1, midnight - now), wake.signal).then(
      () => {
        if (this.rollover === wake) this.rollover = undefined;
        this.changedStatus();
        this.pump();
      },
      () => undefined, // called off: the queue was emptied
    );
  }

  /** Nothing left to wait for: the midnight wake-up is called off (no timer outlives the work). */
  private disarmRollover(): void {
    this.rollover?.abort();
    this.rollover = undefined;
  }

  private pump(): void {
    const limit = this.options.concurrency ?? 2;
    const held = this.options.held?.();
    if (held !== undefined) {
      // The daily limit lifts at the next JST midnight (the same wake-up as the budget's); a
      // refused key waits for a key entered again (sendingChanged).
      if (held === "daily_limit" && !this.userPaused && this.queued.size > this.inFlight)
        this.armRollover();
      return;
    }
    // Sending again (a larger budget, no limit): the midnight wake-up is not needed.
    if (!this.userPaused && !this.budgetSpent()) this.disarmRollover();
    while (this.inFlight < limit && !this.userPaused) {
      if (this.budgetSpent()) {
        if (this.queued.size > this.inFlight) this.armRollover();
        break;
      }
      const next = this.nextStep();
      if (next === undefined) break;
      this.inFlight += 1;
      // The task's first request is counted as it starts (so this loop sees it at once), its
      // further pages as they leave.
      this.count();
      let pages = 0;
      const sent = () => {
        pages += 1;
        if (pages > 1) this.count();
      };
      const unsent = () => {
        // Refused before it left (the key was held meanwhile): nothing was spent.
        if (pages === 0) this.count(-1);
      };
      void next(sent, unsent).finally(() => {
        this.inFlight -= 1;
        this.prune();
        this.changedStatus();
        this.pump();
      });
    }
  }

  /**
   * The next request to send, or undefined when everything left waits for a company's check.
   * Order, which matters when the budget cannot cover everything due:
   * 1. the sheet on screen's companies (`prioritize`) before all others;
   * 2. within each, by kind: a changed company's other filing answers (a new filing is known, the
   *    cells should show it), then filing checks starved for `CHECK_STARVED_AFTER_MS`, then prices
   *    and other answers, then the filing checks. Prices before checks: an analyst needs today's
   *    close on every row, while a check left for tomorrow shows a filing a day later (its cells
   *    stay marked stale meanwhile) in a filing window of 45 days to 3 months;
   * 3. within a kind, the answer stored longest ago first (`storedAt`; a company's check by its
   *    oldest filing answer), so work a spent budget left goes first the next day instead of the
   *    same companies being skipped every morning; ties in queue order.
   */
  private nextStep(): ((sent: () => void, unsent: () => void) => Promise<void>) | undefined {
    const now = this.options.now();
    let best: { group: Group; own: number; score: number; age: number } | undefined;
    const consider = (group: Group, own: number, kind: number, age: number) => {
      const score = (group.focused ? 0 : 4) + kind;
      if (best === undefined || score < best.score || (score === best.score && age < best.age))
        best = { group, own, score, age };
    };
    for (const group of this.groups.values()) {
      // A results-day history after every figure (`RevalidationTask.lowest`), on screen or not.
      group.own.forEach((t, i) =>
        consider(group, i, t.lowest === true ? 9 : t.filing ? 0 : 2, t.storedAt ?? Infinity),
      );
      if (group.checking || group.filing.length === 0 || this.settling) continue;
      let age = Infinity;
      for (const t of group.filing)
        if (t.storedAt !== undefined && t.storedAt < age) age = t.storedAt;
      consider(group, -1, now - age >= CHECK_STARVED_AFTER_MS ? 1 : 3, age);
    }
    if (best === undefined) return undefined;
    const { group, own: index } = best as { group: Group; own: number };
    if (index >= 0) {
      const [own] = group.own.splice(index, 1) as [RevalidationTask];
      return async (sent, unsent) => {
        if ((await this.run(own, sent)) === HELD) this.requeue(own, "own", unsent);
      };
    }
    // The company's check: the answer most likely to show a new filing first.
    group.filing.sort((a, b) => b.rank - a.rank);
    const check = group.filing.shift() as RevalidationTask;
    group.checking = true;
    return async (sent, unsent) => {
      const changed = await this.run(check, sent);
      group.checking = false;
      const rest = group.filing;
      group.filing = [];
      if (changed === true) group.own.push(...rest);
      else if (changed === false) await Promise.all(rest.map((t) => this.keep(t)));
      else group.filing = rest; // the check failed: the rest stays for a later check
      if (changed === HELD) this.requeue(check, "filing", unsent);
    };
  }

  /**
   * Sends one task; true/false whether it changed, undefined when it failed, HELD when the key was
   * held meanwhile (the task goes back to the queue, see `requeue`).
   */
  private async run(
    task: RevalidationTask,
    sent: () => void,
  ): Promise<boolean | undefined | typeof HELD> {
    try {
      const changed = await task.refresh(sent);
      if (changed) this.changedCount += 1;
      this.finish(task, changed);
      return changed;
    } catch (err) {
      // Cleared meanwhile (Refresh all) and queued anew: the new task is not this one's to drop.
      if (this.queued.get(task.key) !== task) return undefined;
      // The daily limit or a refused key: not a failure of this answer; it waits for the lift.
      if (this.options.held?.() !== undefined) return HELD;
      const readers = this.readers.get(task.key);
      this.queued.delete(task.key);
      this.readers.delete(task.key);
      this.marked.delete(task.key);
      this.blocked.set(task.key, this.options.now() + RETRY_FAILED_AFTER_MS);
      // An answer refused by the contract check: its cells show the stored one marked with why.
      if (this.options.shown?.(err) === true) {
        this.failures.set(task.key, err);
        if (readers !== undefined) this.recalculate([...readers]);
      }
      return undefined;
    }
  }

  /** A task refused because the key was held: first in its company's queue again, its count given back. */
  private requeue(task: RevalidationTask, list: "own" | "filing", unsent: () => void): void {
    unsent();
    if (this.queued.get(task.key) !== task) return;
    const id = task.company ?? task.key;
    let group = this.groups.get(id);
    if (group === undefined) {
      group = { id, filing: [], own: [], checking: false, focused: false };
      this.groups.set(id, group);
    }
    group[list].unshift(task);
  }

  private async keep(task: RevalidationTask): Promise<void> {
    await task.touch().catch(() => undefined);
    this.finish(task, false);
  }

  private finish(task: RevalidationTask, changed: boolean): void {
    const { key } = task;
    // Cleared meanwhile (Refresh all) and queued anew: the new task keeps its place and readers.
    if (this.queued.get(key) !== task) return;
    this.queued.delete(key);
    const readers = changed ? this.readers.get(key) : this.marked.get(key);
    this.readers.delete(key);
    this.marked.delete(key);
    if (readers === undefined || readers.size === 0) return;
    this.recalculate([...readers]);
  }

  /**
   * Has `addresses` recalculated by whoever listens (`onRecalculate`): cells whose answer changed
   * or lost its mark here, and cells whose answer arrived after they gave up waiting
   * (client.ts, gave-up.ts).
   */
  recalculate(addresses: string[]): void {
    if (addresses.length === 0) return;
    for (const listener of this.recalcListeners) {
      try {
        listener(addresses);
      } catch {
        // A listener's failure (no Excel) must not stop the queue.
      }
    }
  }

  private prune(): void {
    for (const [id, g] of this.groups) {
      if (g.filing.length === 0 && g.own.length === 0 && !g.checking) this.groups.delete(id);
    }
    // Nothing left to send: no timer waits for midnight on its behalf.
    if (this.groups.size === 0) this.disarmRollover();
  }

  private changedStatus(): void {
    if (this.notifyQueued || this.statusListeners.size === 0) return;
    this.notifyQueued = true;
    queueMicrotask(() => {
      this.notifyQueued = false;
      const s = this.status();
      for (const listener of [...this.statusListeners]) listener(s);
    });
  }
}

/** A task refused unsent because the key is held (`RevalidatorOptions.held`). */
const HELD = Symbol("held");

/** The status's pause for each reason a key is held. */
const HELD_PAUSE = { daily_limit: "limit", key_refused: "key" } as const;

/** The budget as kept: undefined = no limit (null given), the default for undefined. */
function budgetOf(budget: number | null | undefined): number | undefined {
  if (budget === null) return undefined;
  if (budget === undefined || !Number.isFinite(budget)) return DEFAULT_DAILY_BUDGET;
  return Math.max(0, Math.floor(budget));
}

/** setTimeout as a sleep that `signal` calls off (its timer cleared). */
function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("called off"));
    });
  });
}
