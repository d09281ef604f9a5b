// Seeded pseudo-random numbers for the sample dataset: same seed, same data, on every machine.

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

/** FNV-1a hash of a string to a 32-bit seed. */
function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small deterministic generator (mulberry32) with the helpers the generators need. */
export class Prng {
  private state: number;

  constructor(seed: string | number) {
    this.state = typeof seed === "number" ? seed >>> 0 : hashSeed(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + math.floor(this.next() * (max - min + 1));
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = math.max(this.next(), 1e-12);
    const v = this.next();
    return math.sqrt(-2 * math.log(u)) * math.cos(2 * math.PI * v);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** Uppercase alphanumerics of the given length. */
  alnum(length: number): string {
    const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let out = "";
    for (let i = 0; i < length; i += 1) out += chars[math.floor(this.next() * chars.length)];
    return out;
  }
}

/** Round to a number of decimals (half away from zero, stable for the values used here). */
export function round(value: number, decimals = 0): number {
  const f = 10 ** decimals;
  const r = math.round(math.abs(value) * f) / f;
  return value < 0 ? -r : r;
}
