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
    const changed = diffCells(before, after);
    if (changed.length === 0) return undefined;
    const kept = changed.slice(0, MAX_CELLS_PER_UPDATE);
    const moves = companyMoves(replacedSince(since));
    const restated = new Set(
      [...moves.values()].filter((m) => m.restated.length > 0).map((m) => m.company),
    );
    const traced = await deps.trace(kept.slice(0, MAX_TRACED), restated).catch(() => []);
    const traceOf = new Map(kept.map((c, i) => [c, traced[i]]));
    const groups = groupChanges(kept, (c) => traceOf.get(c), moves);
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
  } catch {
    // The log is a record, not the update: a workbook that cannot be read leaves it as it was.
    return undefined;
  }
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
  const before = await deps.read(addresses).catch(() => undefined);
  const result = await update();
  // The update's caller goes on at once (an open recalculates its next batch): the cells settle
  // and the log is written meanwhile.
  if (before === undefined) return { result, logged: Promise.resolve(undefined) };
  // One update's cells read at a time: an open recalculates in many batches, and their reads
  // must not crowd Excel while it calculates.
  const logged = (queue = queue.then(() => logChanges(trigger, start, before, deps, addresses)));
  return { result, logged };
}
