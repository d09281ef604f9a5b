// The open of a workbook on any Excel host: its KAISHA cells answered from what is stored, marked where their data can have changed, and brought current by the background revalidation.
//
// What it does, host by host (README "What happens at open, on each host"):
// - Excel on Windows and Mac calls no custom function when a workbook opens: the cells show the
//   values saved in the file. `openWorkbook` then finds every KAISHA cell (`OpenHost.scanCells`)
//   and recalculates those whose data can have changed (`OpenHost.recalculate`), the sheet on
//   screen first: the workbook's due record (due-record.ts, kept in the document) says until when
//   each company's answers cannot have changed; a cell it cannot vouch for (none kept, an error
//   shown, a company it cannot tell) is recalculated too. Each recalculated cell answers at once
//   from the stored answer (no request), marked stale where its data can have changed
//   (src/client/client.ts serveWhileRevalidating), and the due answers go to the background
//   revalidation (src/client/revalidator.ts), which asks the sheet on screen's companies first and
//   has exactly the cells whose answers changed recalculated (taskpane/recalc-on-revalidation.ts).
// - Excel on the web may call every cell at load: then the cells did all of that themselves, and
//   `openWorkbook` recalculates nothing (nothing asked twice, nothing recalculated twice).
//
// Stable interface (the bench drives it: bench/morning-targets.ts):
//   openWorkbook(host: OpenHost, options?: OpenOptions): Promise<OpenResult>
//   followOpen(client: OpenClient): OpenProgress   (what the open did since, for the pane)
// Every Excel and Office access is behind `OpenHost`; this module has no Office globals.

import type { RevalidationStatus } from "../../src/client";
import { parseKaishaCall } from "../state/refresh-cost";
import { companyArgument, planOpen, storedGroups, type DueRecord } from "./due-record";
import type { OpenCell } from "./open-cell";

/** What the open needs of the client (src/client/client.ts KaishaClient). */
export interface OpenClient {
  revalidation(): OpenQueue;
  /** requests sent so far (the client's stats). */
  stats(): { requestsSent: number };
}

/** What the open needs of the background queue (src/client/revalidator.ts Revalidator). */
interface OpenQueue {
  status(): RevalidationStatus;
  onStatus(listener: (s: RevalidationStatus) => void): () => void;
  onRecalculate(listener: (addresses: string[]) => void): () => void;
  pause(): void;
  resume(): void;
}

/** The workbook, Excel and the runtime as the open sees them (taskpane/open/start.ts gives Excel's). */
export interface OpenHost {
  /** Every KAISHA formula cell of the workbook, every sheet (formulas.ts findKaishaFormulas). */
  scanCells(): Promise<readonly OpenCell[]>;
  /** The sheet on screen, undefined when unknown. */
  activeSheet(): Promise<string | undefined>;
  /**
   * Has Excel evaluate these cells again ("'Sheet 1'!B2" addresses; reenter-formulas.ts: never a
   * cell the analyst typed over); returns how many were.
   */
  recalculate(addresses: readonly string[]): Promise<number>;
  /** The shared client (src/session.ts getClient). */
  client(): OpenClient;
  /**
   * KAISHA cells answered by this runtime so far, each call counted (src/cell-errors.ts
   * cellsAnswered): tells a host that called every cell at load from one that called none.
   */
  cellsAnswered(): number;
  /** Waits `ms` (fake timers in tests, the bench's virtual clock). */
  sleep(ms: number): Promise<void>;
  /** The workbook's due record (due-record.ts); without it every cell is recalculated. */
  dueRecord?(): Promise<DueRecord | undefined>;
  /** The values of cells a formula names its company by ("Sheet!A2", due-record.ts companyArgument). */
  values?(refs: readonly string[]): Promise<ReadonlyMap<string, unknown>>;
  /** Now, for the record's due times (the bench's virtual clock). @default Date.now @unit ms */
  now?(): number;
  /**
   * The keys of the answers this computer stores (the persistent tier's index, no answer read):
   * a cell none of whose answers is held is recalculated (a workbook saved elsewhere).
   */
  storedKeys?(): Promise<readonly string[]>;
}

/**
 * "auto": the background revalidation runs at once (the workbook's startup behaviour is on: the
 * analyst asked for it). "offer": the cells are answered and marked, but the queue is held until
 * the analyst chooses Update (`OpenResult.update`), its cost shown first.
 */
type OpenMode = "auto" | "offer";

export interface OpenOptions {
  /** @default "auto" */
  mode?: OpenMode;
  /**
   * Quiet time that says the cells are in: the host's calls at load (the web) and the open's own
   * recalculation arrive in batches; no cell answered for this long means they are done.
   * @default OPEN_QUIET_MS @unit ms
   */
  quietMs?: number;
  /** Cells handed to `recalculate` at once (each call yields to Excel). @default OPEN_BATCH */
  batch?: number;
  /**
   * Recalculate every cell even when the host called them all (Update: answers can have become
   * due since the open). @default false
   */
  always?: boolean;
}

/** How the open went. */
export interface OpenResult {
  /** KAISHA cells found. */
  cells: number;
  /** "host": the host had called every cell (the web); "recalculated": the open did. */
  calledBy: "host" | "recalculated" | "none";
  /** Cells the open had Excel evaluate again (0 when the host had). */
  recalculated: number;
  /** Cells left showing their saved values: the due record vouches their data cannot have changed. */
  kept: number;
  /** The due record read at open and the groups of the cells kept (due-record.ts mergeDueRecord). */
  dueRecord?: DueRecord;
  keptGroups: ReadonlySet<string>;
  /** What the background queue holds once the cells are in (its cost: requests, time). */
  due: RevalidationStatus;
  /** In "offer" mode, the queue is held: this starts it (Update). Undefined when nothing waits. */
  update?: () => void;
}

/** See `OpenOptions.quietMs`: as the revalidator's own wait (REVALIDATION_SETTLE_MS). @unit ms */
const OPEN_QUIET_MS = 2_000;
/** Quiet periods waited at most (a workbook still calculating after 30 s is left to it). */
const MAX_QUIET_ROUNDS = 15;
/** See `OpenOptions.batch`: several Excel batches of reenter-formulas.ts each. */
const OPEN_BATCH = 5_000;

/** "'Sheet 1'!B2": the address Excel's invocation gives, which the client's queues read. */
export function cellAddressOf(cell: Pick<OpenCell, "sheet" | "address">): string {
  return `'${cell.sheet.replace(/'/g, "''")}'!${cell.address}`;
}

/**
 * The company a KAISHA cell asks about, as its formula names it: its first argument, a code as
 * written or the cell it refers to (each row of a model names its company in a cell of its own).
 *
 * @example companyOf({ sheet: "Model", address: "C2", formula: "=KAISHA.PRICE($A2)" }) // "Model!A2"
 */
export function companyOf(cell: OpenCell): string | undefined {
  const first = parseKaishaCall(cell.formula)?.args[0]?.replace(/\$/g, "").trim();
  if (first === undefined || first === "") return undefined;
  const literal = /^"(.*)"$/.exec(first)?.[1] ?? (/^\d+$/.test(first) ? first : undefined);
  return literal ?? `${cell.sheet}!${first.toUpperCase()}`;
}

/**
 * The values of the cells the scan's formulas name their companies by (each read once); none when
 * the host cannot read them (those cells are then recalculated: due-record.ts groupsOf).
 */
async function companyValues(
  host: OpenHost,
  cells: readonly OpenCell[],
): Promise<ReadonlyMap<string, unknown>> {
  const refs = new Set<string>();
  // A model repeats its formulas: each text parsed once (a 301k-cell model's scan, bench).
  const seen = new Set<string>();
  for (const cell of cells) {
    const text = `${cell.sheet}\n${cell.formula}`;
    if (seen.has(text)) continue;
    seen.add(text);
    const arg = companyArgument(cell);
    if (arg !== undefined && "ref" in arg) refs.add(arg.ref);
  }
  if (refs.size === 0 || host.values === undefined) return new Map();
  return host.values([...refs]).catch(() => new Map());
}

/** Waits until no cell has answered for `quietMs` (at most MAX_QUIET_ROUNDS periods). */
async function quiet(host: OpenHost, quietMs: number): Promise<void> {
  for (let round = 0; round < MAX_QUIET_ROUNDS; round += 1) {
    const seen = host.cellsAnswered();
    await host.sleep(quietMs);
    if (host.cellsAnswered() === seen) return;
  }
}

/**
 * The sheet on screen's cells first, then the other sheets' in the scan's order (the order the
 * client's cold queue and the cells' first answers follow: README "How a new model fills").
 */
function onScreenFirst(cells: readonly OpenCell[], active: string | undefined): OpenCell[] {
  if (active === undefined) return [...cells];
  return [...cells.filter((c) => c.sheet === active), ...cells.filter((c) => c.sheet !== active)];
}

/**
 * Brings a just-opened workbook's KAISHA cells current at the morning's cost (see the file
 * header). Never throws for a host without Excel: a failed scan is an open with no cells.
 *
 * @example const r = await openWorkbook(excelOpenHost(), { mode: "auto" }); r.due.requests // 24
 */
export async function openWorkbook(host: OpenHost, options: OpenOptions = {}): Promise<OpenResult> {
  const mode = options.mode ?? "auto";
  const quietMs = options.quietMs ?? OPEN_QUIET_MS;
  const batch = Math.max(1, options.batch ?? OPEN_BATCH);
  const answeredAtStart = host.cellsAnswered();
  const queue = host.client().revalidation();
  // Held before any cell answers: in "offer" mode nothing is sent before the analyst says so.
  if (mode === "offer") queue.pause();
  const cells = await host.scanCells().catch(() => [] as readonly OpenCell[]);
  if (cells.length === 0) {
    if (mode === "offer") queue.resume();
    return {
      cells: 0,
      calledBy: "none",
      recalculated: 0,
      kept: 0,
      keptGroups: new Set(),
      due: queue.status(),
    };
  }
  // The web calls every cell at load: let its calls come in, then count them.
  if (options.always !== true) await quiet(host, quietMs);
  const hostCalled =
    options.always !== true && host.cellsAnswered() - answeredAtStart >= cells.length;
  let recalculated = 0;
  let kept: Pick<OpenResult, "kept" | "keptGroups"> = { kept: 0, keptGroups: new Set() };
  let dueRecord: DueRecord | undefined;
  if (!hostCalled) {
    // Update asks for every cell (answers can have become due since the open): no record read.
    if (options.always !== true) dueRecord = await host.dueRecord?.().catch(() => undefined);
    const stored =
      dueRecord === undefined || host.storedKeys === undefined
        ? undefined
        : storedGroups(await host.storedKeys().catch(() => []));
    const plan =
      dueRecord === undefined
        ? undefined
        : planOpen(
            cells,
            dueRecord,
            await companyValues(host, cells),
            host.now?.() ?? Date.now(),
            stored,
          );
    if (plan !== undefined) kept = { kept: plan.kept.length, keptGroups: plan.keptGroups };
    const chosen = plan?.recalculate ?? cells;
    const ordered = onScreenFirst(chosen, await host.activeSheet().catch(() => undefined));
    for (let start = 0; start < ordered.length; start += batch) {
      const addresses = ordered.slice(start, start + batch).map(cellAddressOf);
      // A batch Excel refused (a busy workbook) leaves those cells as saved: the rest go on.
      recalculated += await host.recalculate(addresses).catch(() => 0);
    }
    await quiet(host, quietMs);
  }
  const due = queue.status();
  // The host called every cell (the web): its background work was never the open's to hold.
  const offer = mode === "offer" && !hostCalled && (due.companies > 0 || due.inFlight > 0);
  if (mode === "offer" && !offer) queue.resume();
  return {
    cells: cells.length,
    calledBy: hostCalled ? "host" : "recalculated",
    recalculated,
    ...kept,
    ...(dueRecord === undefined ? {} : { dueRecord }),
    due,
    ...(offer ? { update: () => queue.resume() } : {}),
  };
}

/** What the background did since the open started (the pane's "Updated 37 companies: …"). */
export interface OpenReport {
  /** Companies of the cells recalculated (`companyOf`): "Updated 37 companies". */
  companies: number;
  /** Cells recalculated because their answer changed or lost its stale mark. */
  cells: number;
  /** Requests sent since the open started (the client's count: cells' and background's). */
  requests: number;
  /** What is still due: companies, requests, time at the pacer's pace, and why it waits. */
  due: RevalidationStatus;
}

export interface OpenProgress {
  report(): OpenReport;
  /** Calls `listener` on every change; returns unsubscribe. */
  onChange(listener: (r: OpenReport) => void): () => void;
  /** Stops following the queue. */
  stop(): void;
}

/**
 * Follows the background queue from now on: cells recalculated (distinct addresses), their
 * companies (`company`: an address's company, known once the open's scan is in), requests sent.
 *
 * @example const p = followOpen(getClient(), (a) => byAddress.get(a)); p.report().companies // 0
 */
export function followOpen(
  client: OpenClient,
  company: (address: string) => string | undefined = () => undefined,
): OpenProgress {
  const queue = client.revalidation();
  const sentAtStart = client.stats().requestsSent;
  /** The client's count when `stop` was called: what was sent after is no part of the open. */
  let sentAtStop: number | undefined;
  const cells = new Set<string>();
  const listeners = new Set<(r: OpenReport) => void>();
  let last = queue.status();
  const report = (): OpenReport => ({
    companies: new Set([...cells].map(company).filter((c) => c !== undefined)).size,
    cells: cells.size,
    requests: (sentAtStop ?? client.stats().requestsSent) - sentAtStart,
    due: last,
  });
  const changed = () => {
    const r = report();
    for (const l of [...listeners]) l(r);
  };
  const offStatus = queue.onStatus((s) => {
    last = s;
    changed();
  });
  const offCells = queue.onRecalculate((addresses) => {
    for (const a of addresses) cells.add(a);
    changed();
  });
  return {
    report: () => {
      last = queue.status();
      return report();
    },
    onChange: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    stop: () => {
      sentAtStop ??= client.stats().requestsSent;
      offStatus();
      offCells();
      listeners.clear();
    },
  };
}
