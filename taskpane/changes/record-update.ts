// Records what an update changed: the KAISHA cells' values before it, the update itself, the values
// once the cells have settled, and the replaced answers that explain them, into the workbook's log.

import type { CellTrace } from "../trace/trace-model";
import { companyMoves } from "./answer-changes";
import { replacedSince } from "./answer-watch";
import {
  diffCells,
  isPending,
  type CellValue,
  type ChangedCell,
  type LoggedUpdate,
  type UpdateTrigger,
} from "./change-diff";
import { appendLog, MAX_CELLS_PER_UPDATE, type LogStorage } from "./change-log";
import { groupChanges } from "./group-changes";

/** Longest wait for the cells to settle after an update (#BUSY! gone). @unit ms */
const SETTLE_BOUND_MS = 120_000;
/** Between two reads while cells are still waiting. @unit ms */
const SETTLE_POLL_MS = 500;
/** Changed cells traced one by one for their item and period (the rest keep address and values). */
const MAX_TRACED = 300;
/** Quiet time after an answer replaced outside the pane's updates before the cells are read. @unit ms */
const OUTSIDE_PAUSE_MS = 2_000;
/** Between two tries of the first baseline while the client is busy. @unit ms */
const BASELINE_RETRY_MS = 10_000;

/** What recording needs: reading the cells, tracing some, the clock and where the log is kept. */
export interface RecorderDeps {
  /** The KAISHA cells' values (the cells at `addresses` and their spills, or the whole workbook). */
  read(addresses?: readonly string[]): Promise<CellValue[]>;
  /**
   * Traces of changed cells (after the update), in the same order; undefined where not traced.
   * `restated`: the companies a figure of a published period changed for, whose disclosures list
   * may be asked to name the 訂正 (the change an analyst must not miss).
   */
  trace(
    cells: readonly ChangedCell[],
    restated: ReadonlySet<string>,
  ): Promise<(CellTrace | undefined)[]>;
  storage: LogStorage | undefined;
  /** The workbook's name for its log (its URL where Office gives one). */
  workbook(): string;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Whether the client has nothing waiting or in flight (cells still asking have not settled). */
  idle?(): boolean;
}

type Listener = (update: LoggedUpdate) => void;
const listeners = new Set<Listener>();
/**
 * When the last recorded update ended: the answers replaced since then are what this one shows
 * (a background revalidation stores its answer before it has the cells recalculated).
 */
let lastEnd = 0;
/** The updates waiting for their cells to settle, logged one after the other. */
let queue: Promise<LoggedUpdate | undefined> = Promise.resolve(undefined);
/** Updates of the pane under way (from their first read until logged): a replacement is theirs. */
let running = 0;
/**
 * Every KAISHA cell's value as last read after an update (or by takeBaseline): what a
 * recalculation outside the pane (F9, an edited formula) is compared with.
 */
const baseline = new Map<string, CellValue>();
/** When the first answer replaced outside the pane's updates and not yet logged was stored. */
let outsideSince: number | undefined;
let outsideQueued = false;

/** Tells `listener` of each update logged (the Changes view reloads); returns unsubscribe. */
export function onUpdateLogged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function settled(deps: RecorderDeps, addresses: readonly string[] | undefined) {
  const until = deps.now() + SETTLE_BOUND_MS;
  // A whole-workbook recalculation asks the API for what it lacks: its cells settle once the
  // client is idle. Re-entered cells answer from memory (a revalidation stored their answers).
  const busy = () => addresses === undefined && deps.idle !== undefined && !deps.idle();
  // Excel starts evaluating after the recalculation's sync: one poll before the first read.
  do await deps.sleep(SETTLE_POLL_MS);
  while (busy() && deps.now() < until);
  let cells = await deps.read(addresses);
  while ((cells.some((c) => isPending(c.value)) || busy()) && deps.now() < until) {
    await deps.sleep(SETTLE_POLL_MS);
    cells = await deps.read(addresses);
  }
  return cells;
}

/** "Sheet!A1": a cell's key in the baseline. */
function keyOf(c: { sheet: string; address: string }): string {
  return `${c.sheet}!${c.address}`;
}

/** Adds cells read after an update to the baseline (`whole`: they are every KAISHA cell). */
function remember(cells: readonly CellValue[], whole: boolean): void {
  if (whole) baseline.clear();
  for (const c of cells) if (!isPending(c.value)) baseline.set(keyOf(c), c);
}

/**
 * Groups and logs changed cells with the replaced answers since `since` that explain them;
 * `explainedOnly` leaves out the cells no replaced answer explains (a recalculation outside the
 * pane: those moved with the analyst's own inputs, not with an answer).
 */
async function logChanged(
  trigger: UpdateTrigger,
  start: number,
  changed: readonly ChangedCell[],
  since: number,
  deps: RecorderDeps,
  explainedOnly: boolean,
): Promise<LoggedUpdate | undefined> {
  if (changed.length === 0) return undefined;
  const kept = changed.slice(0, MAX_CELLS_PER_UPDATE);
  const moves = companyMoves(replacedSince(since));
  const restated = new Set(
    [...moves.values()].filter((m) => m.restated.length > 0).map((m) => m.company),
  );
  const traced = await deps.trace(kept.slice(0, MAX_TRACED), restated).catch(() => []);
  const traceOf = new Map(kept.map((c, i) => [c, traced[i]]));
  const all = groupChanges(kept, (c) => traceOf.get(c), moves);
  const groups = explainedOnly ? all.filter((g) => g.kind !== "changed") : all;
  if (groups.length === 0) return undefined;
  const entry: LoggedUpdate = {
    id: `${start.toString(36)}-${trigger}`,
    at: deps.now(),
    trigger,
    groups,
    more: changed.length - kept.length,
  };
  appendLog(deps.storage, deps.workbook(), entry);
  for (const l of [...listeners]) l(entry);
  return entry;
}

/** Reads the settled cells, diffs them against `before` and logs the update (never throws). */
async function logChanges(
  trigger: UpdateTrigger,
  start: number,
  before: readonly CellValue[],
  deps: RecorderDeps,
  addresses: readonly string[] | undefined,
): Promise<LoggedUpdate | undefined> {
  const since = lastEnd;
  try {
    const after = await settled(deps, addresses);
    lastEnd = deps.now();
    remember(after, addresses === undefined);
    return await logChanged(trigger, start, diffCells(before, after), since, deps, false);
  } catch {
    // The log is a record, not the update: a workbook that cannot be read leaves it as it was.
    return undefined;
  }
}

/**
 * Cells whose value moved since the baseline while their formula stayed the same: what a
 * recalculation outside the pane changed (a new or edited formula is the analyst's, not an update).
 */
function movedSinceBaseline(now: readonly CellValue[]): ChangedCell[] {
  const was: CellValue[] = [];
  const is: CellValue[] = [];
  for (const c of now) {
    const b = baseline.get(keyOf(c));
    if (b === undefined || b.formula !== c.formula) continue;
    was.push(b);
    is.push(c);
  }
  return diffCells(was, is);
}

/**
 * Logs what a recalculation outside the pane changed, read in `cells` (every KAISHA cell when
 * `whole`): the cells the replaced answers since the last record explain, as "recalculation".
 */
async function logOutside(
  cells: readonly CellValue[],
  whole: boolean,
  deps: RecorderDeps,
): Promise<LoggedUpdate | undefined> {
  // The replaced answers stay the next update's too (lastEnd unmoved): a background update may
  // have replaced answers its own cells have not shown yet.
  const since = lastEnd;
  const start = outsideSince ?? deps.now();
  if (whole) outsideSince = undefined;
  try {
    const changed = movedSinceBaseline(cells);
    remember(cells, whole);
    return await logChanged("recalculation", start, changed, since, deps, true);
  } catch {
    return undefined;
  }
}

/**
 * An answer was replaced while no update of the pane ran (the analyst's F9, an edited formula, a
 * cell asking again): once the client is idle and the cells have settled, the workbook's cells are
 * read and the moved ones logged as a recalculation (a pane update starting first logs them from
 * its own first read). Nothing is read before a baseline exists.
 * @example onAnswerReplaced((r) => noteOutsideReplacement(r.at, deps));
 */
export function noteOutsideReplacement(at: number, deps: RecorderDeps): void {
  if (running > 0) return;
  outsideSince ??= at;
  if (outsideQueued) return;
  outsideQueued = true;
  queue = queue.then(async () => {
    // A background update re-enters the cells whose answers it replaced within moments: its own
    // record explains them, and the workbook is not read twice.
    await deps.sleep(OUTSIDE_PAUSE_MS);
    outsideQueued = false;
    const since = outsideSince;
    if (since === undefined || baseline.size === 0 || running > 0 || lastEnd > since)
      return undefined;
    // A pane update started meanwhile reads and logs these cells first (recordUpdate).
    const cells = await settled(deps, undefined).catch(() => undefined);
    if (cells === undefined || running > 0) return undefined;
    return logOutside(cells, true, deps);
  });
}

/**
 * The baseline a recalculation outside the pane is compared with, when no update of the pane has
 * read the workbook within a pause: every KAISHA cell, read once the client is idle (retried until
 * then), never beside the open's own reads.
 */
export function takeBaseline(deps: RecorderDeps): void {
  const attempt = async (): Promise<void> => {
    // First a pause: the workbook's open reads every cell itself, its reads are the baseline.
    await deps.sleep(BASELINE_RETRY_MS);
    if (baseline.size > 0) return;
    if (running === 0 && (deps.idle?.() ?? true)) {
      const cells = await deps.read().catch(() => undefined);
      if (cells !== undefined && baseline.size === 0 && running === 0) remember(cells, true);
      if (baseline.size > 0) return;
    }
    return attempt();
  };
  void attempt();
}

/** Forgets the baseline and what is pending (tests; a new workbook). @internal */
export function forgetBaseline(): void {
  baseline.clear();
  outsideSince = undefined;
  outsideQueued = false;
  running = 0;
}

/**
 * Runs `update` after reading the KAISHA cells, then, once they have settled, logs the cells whose
 * values changed, grouped by the filing or price day that brought them (nothing when none
 * changed): `result` is the update's own, `logged` the entry once written. A failure to read the
 * cells never fails the update itself.
 * @example const { result } = await recordUpdate("refresh", () => recalculateAll(), deps)
 */
export async function recordUpdate<T>(
  trigger: UpdateTrigger,
  update: () => Promise<T>,
  deps: RecorderDeps,
  addresses?: readonly string[],
): Promise<{ result: T; logged: Promise<LoggedUpdate | undefined> }> {
  const start = deps.now();
  running += 1;
  let done = false;
  const end = () => {
    if (!done) running -= 1;
    done = true;
  };
  try {
    const before = await deps.read(addresses).catch(() => undefined);
    // Answers replaced before this update by a recalculation of the analyst's: logged first,
    // from this first read, so this update's diff holds only its own changes.
    if (before !== undefined && outsideSince !== undefined && baseline.size > 0)
      queue = queue.then(() => logOutside(before, addresses === undefined, deps));
    const result = await update();
    // The update's caller goes on at once (an open recalculates its next batch): the cells settle
    // and the log is written meanwhile.
    if (before === undefined) {
      end();
      return { result, logged: Promise.resolve(undefined) };
    }
    // One update's cells read at a time: an open recalculates in many batches, and their reads
    // must not crowd Excel while it calculates.
    const logged = (queue = queue
      .then(() => logChanges(trigger, start, before, deps, addresses))
      .finally(end));
    return { result, logged };
  } catch (err) {
    end();
    throw err;
  }
}
