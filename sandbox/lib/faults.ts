// Deterministic fault injection: a seeded generator decides which requests fail and how.

/** Fault kinds: a 503 or 500 error body, a dropped connection, or a truncated JSON body. */
export type FaultKind = "503" | "500" | "drop" | "malformed";

const FAULT_KINDS: readonly FaultKind[] = ["503", "500", "drop", "malformed"];

export interface FaultOptions {
  /** Share of requests that fail, 0..1. */
  rate: number;
  /** Kinds to choose from (uniformly); default all kinds. */
  kinds?: readonly FaultKind[];
  /** Seed: the same seed gives the same sequence of faults. */
  seed?: number;
}

/**
 * Thrown (deliberately not an Error, so Hono's error handler lets it through) when a request's
 * connection is to be dropped: `app.request` rejects with it; the node server destroys the socket.
 */
export class ConnectionDropped {
  readonly message = "Connection dropped by the sandbox fault injector.";
}

/** True for the value thrown for a dropped connection. */
export function isConnectionDropped(value: unknown): value is ConnectionDropped {
  return value instanceof ConnectionDropped;
}

/** Draws faults from a seeded PRNG (mulberry32) so test runs are reproducible. */
export class FaultInjector {
  #state: number;
  readonly #kinds: readonly FaultKind[];
  readonly #rate: number;
  readonly #seed: number;

  constructor(options: FaultOptions | undefined) {
    this.#rate = Math.min(1, Math.max(0, options?.rate ?? 0));
    this.#kinds =
      options?.kinds !== undefined && options.kinds.length > 0 ? options.kinds : FAULT_KINDS;
    this.#seed = (options?.seed ?? 1) >>> 0;
    this.#state = this.#seed;
  }

  /** The fault for the next request, or null when it should succeed. */
  next(): FaultKind | null {
    if (this.#rate <= 0) return null;
    const hit = this.#random() < this.#rate;
    const pick = this.#random();
    if (!hit) return null;
    return this.#kinds[Math.floor(pick * this.#kinds.length)] ?? null;
  }

  /** Restarts the sequence from the seed. */
  reset(): void {
    this.#state = this.#seed;
  }

  #random(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
}

/** Parses `SANDBOX_FAULTS` ("503,drop"): unknown names are rejected so typos are noticed. */
export function parseFaultKinds(text: string): FaultKind[] {
  const kinds = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new Error(`Unknown fault kind '${kind}'; use ${FAULT_KINDS.join(", ")}.`);
    }
  }
  return kinds as FaultKind[];
}
