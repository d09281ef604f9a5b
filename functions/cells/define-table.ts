// defineTable({ parse, needs, compute }): a spilling custom function (a Cell[][] table), answered
// from memory at once or through `run`, both paths ending in the same `compute`; a table is built
// once per answers and argument object, and given again while those answers are the same.

import { isStale, type KaishaClient } from "../../src/client";
import { clearCellError } from "../../src/cell-errors";
import { assertWithinLimits } from "../../src/excel/limits";
import type { Cell } from "../../src/excel/values";
import { getClient, getSettings } from "../../src/session";
import { ArgumentError } from "../../src/excel/args";
import type { Shaping } from "../common";
import { getHostCapabilities } from "../host";
import { failedAtOnce, inPreview, run, type InvocationLike } from "../run";
import { memoryAnswers, type Answers } from "./answers";
import { internedRaw, rawArgsTable } from "./interned-args";
import { keepTable, tableOf, type KeptTable } from "./packed-table";
import type { AnswerSteps } from "./answer-steps";
import { inRounds, LACKING } from "./rounds";

/**
 * What a table function needs besides its arguments: the subject and answers (answer-steps.ts),
 * which argument objects may be kept, and what is refused before anything is asked.
 */
interface TableNeeds<A, S, Q extends object, B> extends AnswerSteps<A, S, Q, B> {
  /** False for arguments that must be read anew for each cell (a company name). Default true. */
  remembered?(args: A): boolean;
  /**
   * Refusals that depend on today (a date in the future), thrown before the subject is looked up
   * or anything is asked: no request for a cell that cannot be answered. `userToday` is today
   * where the user is (client.userToday(): up to a day ahead of JST east of Japan).
   */
  refuse?(args: A, today: string, userToday: string): void;
}

/**
 * One table function. `A` is its frozen argument object, `S` the subject its answers are asked
 * for (a security code, a company and its EDINET code: a string or an interned object, so that
 * `===` tells the same one), `Q` a frozen query naming one answer, `B` that answer.
 */
export interface TableDefinition<A extends object, S, Q extends object, B> {
  /**
   * The raw arguments (Excel's, in order, the invocation left out) read into one argument object;
   * ArgumentError for the first refused (#VALUE!, before any request). Depends on the texts alone
   * (not on today or the key): defineTable keeps one frozen object per combination of them.
   */
  parse(raw: readonly unknown[]): A;
  /** The subject and the answers compute reads, and how each is found (in memory or fetched). */
  needs: TableNeeds<A, S, Q, B>;
  /**
   * The table from the answers `answers` holds, LACKING when one it read is missing (later rounds:
   * an as_of read from another answer, a year outside the first window), or a thrown error (#N/A,
   * #VALUE!). Synchronous, and a function of its arguments, the answers it read, `shaping` and
   * `client.today()` alone: the warm path and the full path cannot differ, and a table built once
   * is the table for as long as those are the same.
   */
  compute(
    args: A,
    subject: S,
    answers: Answers<Q, B>,
    shaping: Shaping,
    client: KaishaClient,
  ): Cell[][] | typeof LACKING;
}

/**
 * What a table function gives: the table itself when it is at hand from memory (Excel's runtime
 * sets a result that is not a thenable at once: custom-functions-runtime.js
 * `_invokeFunctionAndSetResult`), else a promise of it.
 */
export type TableResult = Cell[][] | Promise<Cell[][]>;

/** A defined table as functions/*.ts call it: the invocation, then Excel's raw arguments. */
export type DefinedTable = (
  invocation: InvocationLike | undefined,
  raw: readonly unknown[],
) => TableResult;

/** A table built, with everything it was built from. */
interface Built<S, Q, B> {
  readonly subject: S;
  /** The shaping's parts (not a call's context: a kept table must not keep its call alive). */
  readonly host: Shaping["host"];
  readonly headerLanguage: Shaping["headerLanguage"];
  readonly today: string;
  /** The answers compute read, in order, and the bodies it read for them. */
  readonly queries: readonly Q[];
  readonly bodies: readonly B[];
  /** Packed where its rows are all numbers (packed-table.ts): a model keeps 500 price spills. */
  readonly kept: KeptTable;
}

/** An answer reader noting what compute read through it (the table is kept against them). */
class Recorded<Q extends object, B> implements Answers<Q, B> {
  readonly queries: Q[] = [];
  readonly bodies: B[] = [];
  constructor(private readonly from: Answers<Q, B>) {}

  read(query: Q): B | undefined {
    const body = this.from.read(query);
    if (body !== undefined) {
      this.queries.push(query);
      this.bodies.push(body);
    }
    return body;
  }
}

/** A warm miss: an error the full path would report word for word, or nothing (the full path). */
class Miss {
  constructor(readonly failure: Error | undefined) {}
}

/** A miss with nothing found: the full path (one object for every such miss). */
const TO_FULL = new Miss(undefined);

/** The session's shaping now (one object while host and header language stay the same). */
let shapingNow: Shaping = { host: getHostCapabilities(), headerLanguage: "keys" };

function currentShaping(): Shaping {
  const host = getHostCapabilities();
  const { headerLanguage } = getSettings();
  if (shapingNow.host !== host || shapingNow.headerLanguage !== headerLanguage)
    shapingNow = { host, headerLanguage };
  return shapingNow;
}

function always(): boolean {
  return true;
}

/**
 * The table as `run` gives it (functions/run.ts: Excel takes no empty array; a result over the
 * grid or 5 MB is refused), frozen: every cell given it shares it.
 */
function settled(table: Cell[][]): Cell[][] {
  const shown = table.length === 0 ? [[""]] : table;
  assertWithinLimits(shown);
  for (const row of shown) Object.freeze(row);
  return Object.freeze(shown) as Cell[][];
}

/**
 * The custom-function implementation of `definition`, with two paths calling the same `compute`:
 *
 * - warm: the subject at hand and every answer fresh in memory; the table built before from the
 *   same answers (or built now, once), at once with no request, await or per-call context (the
 *   table itself, not a promise); an error found so is reported at once as `run` reports it;
 * - full: `run` (cancellation, value preview, stale marking, deadline, the Problems list); fetches
 *   what compute lacks, round by round (functions/cells/rounds.ts). A table built before is given
 *   again when the fetched answers are the very bodies it was built from (an answer without a
 *   synchronous peek: the stored PRICES spill).
 *
 * There is no separate join path: a table waiting for another cell's fetch is a full path, and
 * the client's in-flight registry gives it that fetch's promise (one request for both).
 */
export function defineTable<A extends object, S, Q extends object, B>(
  definition: TableDefinition<A, S, Q, B>,
): DefinedTable {
  const { needs, compute } = definition;
  const memory = memoryAnswers<Q, B>(needs.peek);
  const rawArgs = rawArgsTable();
  const remembered = needs.remembered ?? always;
  /**
   * Tables kept, per client and then per argument object. The argument objects are interned for
   * the module's life (interned-args.ts), so a table kept under them alone outlived its client and
   * kept that client's answers alive (a new key, a reopened workbook: bench Model 500 held its old
   * runtime's 500 price answers, ~50 MB, through the reopen). Answers belong to the client (and key)
   * that fetched them; so do the tables built from them.
   */
  const tables = new WeakMap<KaishaClient, WeakMap<A, Built<S, Q, B>>>();

  const parse = (raw: readonly unknown[]): A =>
    internedRaw(rawArgs, raw, definition.parse, remembered);

  /** The table built for `args` when it was built for this subject, shaping and day. */
  function builtFor(client: KaishaClient, args: A, subject: S, shaping: Shaping, today: string) {
    const built = tables.get(client)?.get(args);
    if (built === undefined || built.subject !== subject || built.today !== today) return undefined;
    if (built.host !== shaping.host || built.headerLanguage !== shaping.headerLanguage)
      return undefined;
    return built;
  }

  /**
   * The table as given (settled), kept when built from cached answers (not from a stale copy:
   * the warm path never sees one, and the answer asked again gives a new table).
   */
  function keep(
    client: KaishaClient,
    args: A,
    subject: S,
    shaping: Shaping,
    today: string,
    read: Recorded<Q, B>,
    built: Cell[][],
  ): Cell[][] {
    const table = settled(built);
    const bodies = read.bodies;
    if (bodies.every((b) => typeof b === "object" && b !== null && !isStale(b))) {
      let byArgs = tables.get(client);
      if (byArgs === undefined) {
        byArgs = new WeakMap();
        tables.set(client, byArgs);
      }
      byArgs.set(args, {
        subject,
        host: shaping.host,
        headerLanguage: shaping.headerLanguage,
        today,
        queries: read.queries,
        bodies,
        kept: keepTable(table),
      });
    }
    return table;
  }

  /** The table from memory alone, or the miss: an error that is final, or the full path. */
  function warm(raw: readonly unknown[]): Cell[][] | Miss {
    let args: A;
    try {
      args = parse(raw);
    } catch (err) {
      // The full path parses the same arguments the same way: its error is this one.
      return err instanceof ArgumentError ? new Miss(err) : TO_FULL;
    }
    try {
      const client = getClient();
      const today = client.today();
      needs.refuse?.(args, today, client.userToday());
      const subject = needs.subjectAtHand(args, client);
      if (subject === undefined) return TO_FULL;
      const shaping = currentShaping();
      const built = builtFor(client, args, subject, shaping, today);
      if (built?.queries.every((q, i) => needs.peek(client, q) === built.bodies[i]))
        return tableOf(built.kept);
      memory.begin(client);
      const read = new Recorded(memory);
      const table = compute(args, subject, read, shaping, client);
      if (table === LACKING) return TO_FULL;
      return keep(client, args, subject, shaping, today, read, table);
    } catch (err) {
      // From fresh answers and the subject the full path uses: the full path's error, word for word.
      return err instanceof Error ? new Miss(err) : TO_FULL;
    } finally {
      memory.end();
    }
  }

  function full(invocation: InvocationLike | undefined, raw: readonly unknown[]) {
    return run(invocation, async (ctx) => {
      const args = parse(raw);
      const today = ctx.client.today();
      needs.refuse?.(args, today, ctx.client.userToday());
      const known = needs.subject(ctx, args);
      const subject = known instanceof Promise ? await known : known;
      const fetch = (q: Q) => needs.fetch(ctx, args, subject, q);
      const built = builtFor(ctx.client, args, subject, ctx, today);
      if (built !== undefined) {
        const bodies = await Promise.all(built.queries.map(fetch));
        if (bodies.every((b, i) => b === built.bodies[i])) return tableOf(built.kept);
      }
      let read: Recorded<Q, B> | undefined;
      const table = await inRounds<Q, B, Cell[][]>(
        needs.first(args, subject),
        (answers) => {
          read = new Recorded(answers);
          return compute(args, subject, read, ctx, ctx.client);
        },
        fetch,
      );
      return keep(ctx.client, args, subject, ctx, today, read as Recorded<Q, B>, table);
    });
  }

  return (invocation, raw) => {
    const quick = warm(raw);
    if (!(quick instanceof Miss)) {
      // The cell shows a table again: its recorded error goes (not for a value preview).
      if (invocation?.address && !inPreview(invocation)) clearCellError(invocation.address);
      // The table itself, not a promise of it: a promise kept a warm recalculation's spills alive
      // until its batch's reactions ran (bench Model 500: 500 PRICES spills in one batch survived
      // every scavenge meanwhile and were promoted, ~36 MB a recalculation).
      return quick;
    }
    if (quick.failure !== undefined && !inPreview(invocation))
      return failedAtOnce(invocation, quick.failure);
    return full(invocation, raw);
  };
}
