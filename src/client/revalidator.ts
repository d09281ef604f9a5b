// Background revalidation: answers served at once while due are asked again behind the cells, company by company.

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
  /** Sends the request (through the pacer); true when the answer differs from the one stored. */
  refresh(): Promise<boolean>;
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
  /** "user" (Pause), "budget" (the daily budget is spent), or undefined while running. */
  paused: "user" | "budget" | undefined;
  /** Background requests allowed per JST day; undefined = no limit. */
  dailyBudget: number | undefined;
  /** Background requests sent today (JST). */
  spentToday: number;
  /** Answers that came back changed since the session started. */
  changed: number;
}

export interface RevalidatorOptions {
  now: () => number;
  /** The pacer's spacing between requests (60/min: 1000). @unit ms */
  intervalMs: () => number;
  /** Background requests in flight at once (the pacer spaces them anyway). @default 2 */
  concurrency?: number;
  /** Background requests per JST day. @default undefined (no limit) */
  dailyBudget?: number;
  /**
   * Quiet time before companies' filing checks are chosen: a workbook's cells arrive in batches
   * over seconds, and a company's answers are queued as its cells come (its annual cells long
   * before its quarterly ones in a comparables sheet). Checking at once would send the annual
   * as the company's check and then the quarterly as another; waiting until no filing answer has
   * been queued for this long lets one check (the highest rank) cover the company. Prices and
   * other tasks are sent meanwhile. @default 0 (checks start as soon as queued) @unit ms
   */
  settleMs?: number;
  /** Waits `ms` (the client's sleep: virtual in the bench, faked in tests). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
}

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

const JST_OFFSET_MS = 9 * 3_600_000;
/** `blocked` value of a key the user canceled: not queued again until Resume. */
const CANCELED = Number.POSITIVE_INFINITY;
const DAY = 86_400_000;
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
 * the others, each in the order their cells asked. Pause, Cancel and a daily budget are the user's.
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
  /** Bodies served while due, to their key (a shared fetch's cells report their reads by body). */
  private readonly served = new WeakMap<object, string>();
  private readonly statusListeners = new Set<(s: RevalidationStatus) => void>();
  private readonly recalcListeners = new Set<(addresses: string[]) => void>();
  private inFlight = 0;
  private userPaused = false;
  private budget: number | undefined;
  private spent = 0;
  private spentDay = -1;
  private changedCount = 0;
  private notifyQueued = false;
  /** The sheet on screen (`prioritize`), applied to companies queued later too. */
  private focus: ((address: string) => boolean) | undefined;
  /** Cells' reads of due answers so far (the quiet wait compares it before and after a period). */
  private dueReads = 0;
  /** A quiet wait is under way (`settleMs`): companies' checks are not chosen meanwhile. */
  private settling = false;

  constructor(private readonly options: RevalidatorOptions) {
    this.budget = options.dailyBudget;
  }

  /**
   * Queues `task` unless its key is queued, in flight, or blocked; records `reader` (a cell
   * address) as showing the answer, `marked` when it was shown marked stale.
   */
  schedule(task: RevalidationTask, reader?: string, marked = false): void {
    // A cell read a due answer: the open's cells are still arriving (the quiet wait).
    this.dueReads += 1;
    if (reader !== undefined) this.noteReader(task.key, reader, marked);
    if (this.queued.has(task.key)) return;
    const until = this.blocked.get(task.key);
    if (until !== undefined && this.options.now() < until) return;
    this.blocked.delete(task.key);
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
    const until = CANCELED;
    for (const group of this.groups.values()) {
      for (const t of [...group.filing, ...group.own]) {
        this.blocked.set(t.key, until);
        this.queued.delete(t.key);
        this.readers.delete(t.key);
        this.marked.delete(t.key);
      }
      group.filing = [];
      group.own = [];
    }
    this.prune();
    this.changedStatus();
    return Math.max(0, dropped);
  }

  /** Background requests per JST day; undefined for no limit. */
  setDailyBudget(budget: number | undefined): void {
    this.budget = budget === undefined ? undefined : Math.max(0, Math.floor(budget));
    this.changedStatus();
    this.pump();
  }

  status(): RevalidationStatus {
    let requests = 0;
    for (const g of this.groups.values()) {
      requests += g.own.length + (g.checking ? 0 : Math.min(1, g.filing.length));
    }
    this.rollDay();
    return {
      companies: this.groups.size,
      requests,
      inFlight: this.inFlight,
      estimatedMs: requests * this.options.intervalMs(),
      paused: this.userPaused ? "user" : this.budgetSpent() ? "budget" : undefined,
      dailyBudget: this.budget,
      spentToday: this.spent,
      changed: this.changedCount,
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

  /** Resolves when nothing is queued or in flight (or the queue is paused). Tests and bench. */
  async idle(): Promise<void> {
    while (this.inFlight > 0 || (this.queued.size > 0 && this.status().paused === undefined)) {
      await new Promise<void>((resolve) => {
        const off = this.onStatus(() => {
          off();
          resolve();
        });
      });
    }
  }

  private budgetSpent(): boolean {
    this.rollDay();
    return this.budget !== undefined && this.spent >= this.budget;
  }

  private rollDay(): void {
    const day = Math.floor((this.options.now() + JST_OFFSET_MS) / DAY);
    if (day !== this.spentDay) {
      this.spentDay = day;
      this.spent = 0;
    }
  }

  private pump(): void {
    const limit = this.options.concurrency ?? 2;
    while (this.inFlight < limit && !this.userPaused && !this.budgetSpent()) {
      const next = this.nextStep();
      if (next === undefined) break;
      this.inFlight += 1;
      this.spent += 1;
      void next().finally(() => {
        this.inFlight -= 1;
        this.prune();
        this.changedStatus();
        this.pump();
      });
    }
  }

  /**
   * The next request to send, or undefined when everything left waits for a company's check: the
   * sheet on screen's companies first, then the others, each in the order they were queued.
   */
  private nextStep(): (() => Promise<void>) | undefined {
    return this.stepOf(true) ?? this.stepOf(false);
  }

  private stepOf(focused: boolean): (() => Promise<void>) | undefined {
    for (const group of this.groups.values()) {
      if (group.focused !== focused) continue;
      const own = group.own.shift();
      if (own !== undefined)
        return async () => {
          await this.run(own);
        };
      if (group.checking || group.filing.length === 0 || this.settling) continue;
      // The company's check: the answer most likely to show a new filing first.
      group.filing.sort((a, b) => b.rank - a.rank);
      const check = group.filing.shift() as RevalidationTask;
      group.checking = true;
      return async () => {
        const changed = await this.run(check);
        group.checking = false;
        const rest = group.filing;
        group.filing = [];
        if (changed === true) group.own.push(...rest);
        else if (changed === false) await Promise.all(rest.map((t) => this.keep(t)));
        else group.filing = rest; // the check failed: the rest stays for a later check
      };
    }
    return undefined;
  }

  /** Sends one task; true/false whether it changed, undefined when it failed. */
  private async run(task: RevalidationTask): Promise<boolean | undefined> {
    try {
      const changed = await task.refresh();
      if (changed) this.changedCount += 1;
      this.finish(task.key, changed);
      return changed;
    } catch {
      this.queued.delete(task.key);
      this.readers.delete(task.key);
      this.marked.delete(task.key);
      this.blocked.set(task.key, this.options.now() + RETRY_FAILED_AFTER_MS);
      return undefined;
    }
  }

  private async keep(task: RevalidationTask): Promise<void> {
    await task.touch().catch(() => undefined);
    this.finish(task.key, false);
  }

  private finish(key: string, changed: boolean): void {
    this.queued.delete(key);
    const readers = changed ? this.readers.get(key) : this.marked.get(key);
    this.readers.delete(key);
    this.marked.delete(key);
    if (readers === undefined || readers.size === 0) return;
    const addresses = [...readers];
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
