// The sharing layer as callers outside the client see it: one piece of work per answer (the key now
// readable, an operation and its arguments), found, begun, held and waited for by every consumer.

import type { OperationId } from "../contract/rules";
import type { BeginOptions, Flight, InFlightRequests } from "./inflight";
import type { ParamsOf, ResponseOf } from "./types";

/**
 * The arguments' signature: the operation, then each name, type and value in the object's own
 * order (the same object, or one built the same way, gives the same text); undefined when a value
 * is not a plain string, number, boolean or null (such arguments are never remembered).
 *
 * @example argumentSignature("getPeers", { security_code: "7203" }) // "getPeers\u0000security_code\u0001s7203"
 */
export function argumentSignature(
  opId: string,
  params: Record<string, unknown>,
): string | undefined {
  let out = opId;
  for (const name in params) {
    const value = params[name];
    const kind = typeof value;
    if (value === undefined) continue;
    if (kind !== "string" && kind !== "number" && kind !== "boolean" && value !== null)
      return undefined;
    // The type is part of it: "30" and 30 may validate differently.
    out += `\u0000${name}\u0001${kind.charAt(0)}${String(value)}`;
  }
  return out;
}

/** Flight keys of frozen queries, with the partition and operation they were made for. */
const keys = new WeakMap<object, { partition: string; opId: string; key: string }>();

/**
 * Work on one answer shared by every caller that lacks it, in the client's one map of work under
 * way (inflight.ts: the requests it sends, EDINET look-ups, and these). Kept findable one turn
 * after it settles, so callers woken by its answer read its outcome (a stale copy, an error)
 * instead of starting the same work again. Keyed by the cache partition (key-partition.ts): a
 * caller never joins another key's work.
 */
export class AnswerFlights {
  /**
   * `work` is the client's one map: callers hold a flight (`hold`), wait for it as a record
   * (`wait`) and leave (`release`) through it (inflight.ts).
   */
  constructor(
    readonly work: InFlightRequests,
    private readonly partition: () => string | undefined,
  ) {}

  private key(opId: OperationId, params: object): string {
    const partition = this.partition() ?? "";
    // Kept per frozen query (interned: the same object for a company's ~90 waiting cells), so a
    // cold model's 300k waiting cells build no key text each (bench: the cold run's heap peak).
    const known = keys.get(params);
    if (known !== undefined && known.partition === partition && known.opId === opId)
      return known.key;
    const signature = argumentSignature(opId, params as Record<string, unknown>);
    const key = `${partition}\u0000answer\u0000${signature ?? JSON.stringify(params)}`;
    if (Object.isFrozen(params)) keys.set(params, { partition, opId, key });
    return key;
  }

  /** The work under way (or settled this turn) for this answer, if any. Starts nothing. */
  find<O extends OperationId>(opId: O, params: ParamsOf<O>): Flight<ResponseOf<O>> | undefined {
    return this.work.size === 0 ? undefined : this.work.find(this.key(opId, params));
  }

  /** The work for this answer: the one found, else `start` begun now (see inflight.ts begin). */
  begin<O extends OperationId>(
    opId: O,
    params: ParamsOf<O>,
    start: (signal: AbortSignal) => Promise<ResponseOf<O>>,
  ): Flight<ResponseOf<O>> {
    return this.work.begin(this.key(opId, params), start, SHARED);
  }

  /**
   * Watches `work` under `name` (per key) until it settles, once per name: answers that will
   * teach the client something others wait for (company-resolver.ts: /financials asked by a
   * security code teaches its EDINET code).
   */
  watch(name: string, work: Promise<unknown>): void {
    const watched = this.watched();
    if (watched.has(name)) return;
    const forget = (): void => {
      if (watched.get(name) === done) watched.delete(name);
    };
    const done = work.then(forget, forget);
    watched.set(name, done);
  }

  /** Whether anything `watch`ed for the key now readable is still under way. */
  watching(): boolean {
    return this.watched().size > 0;
  }

  /** Resolves when everything `watch`ed now for the key now readable has settled. */
  async settled(): Promise<void> {
    await Promise.all(this.watched().values());
  }

  private watched(): Map<string, Promise<void>> {
    let byKey = watchedBy.get(this.work);
    if (byKey === undefined) watchedBy.set(this.work, (byKey = new Map()));
    const partition = this.partition() ?? "";
    let watched = byKey.get(partition);
    if (watched === undefined) byKey.set(partition, (watched = new Map()));
    return watched;
  }
}

/** What `watch` holds, per map of work under way (shared by a client's copies) and partition. */
const watchedBy = new WeakMap<InFlightRequests, Map<string, Map<string, Promise<void>>>>();

/** Answer flights outlive their settling by one turn and are not counted as coalesced requests. */
const SHARED: BeginOptions = Object.freeze({ keepSettledTurn: true, counted: false });
