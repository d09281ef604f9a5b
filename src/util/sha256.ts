// SHA-256 (FIPS 180-4) of a text, synchronously: the cache partition's fingerprint on the per-cell path.

/**
 * Why not crypto.subtle: its digest is asynchronous (and resolves outside the event loop's timers,
 * so fake-timer tests cannot drive it), while the per-recalculation fast path must know the
 * partition synchronously. The input is a key and a URL, hashed once per key change.
 */

/** The first `count` primes. */
function firstPrimes(count: number): number[] {
  const out: number[] = [];
  for (let n = 2; out.length < count; n += 1) if (out.every((p) => n % p !== 0)) out.push(n);
  return out;
}

/** The first 32 bits of the fractional part of `x`. */
const fraction32 = (x: number): number => ((x - Math.floor(x)) * 0x100000000) >>> 0;

/**
 * FIPS 180-4 4.2.2 and 5.3.3: the round constants are the first 32 bits of the fractional parts of
 * the cube roots of the first 64 primes, the initial hash value those of the square roots of the
 * first 8. Computed once (a double holds over 40 fractional bits of each root, so the 32 taken are
 * exact) rather than shipped as 72 literals on the runtime page.
 */
const PRIMES = firstPrimes(64);
const K = Uint32Array.from(PRIMES, (p) => fraction32(Math.cbrt(p)));
const H0 = PRIMES.slice(0, 8).map((p) => fraction32(Math.sqrt(p)));

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/**
 * Lower-case hex SHA-256 of the UTF-8 bytes of `text`.
 *
 * @example sha256Hex("abc") // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  // Padding: 0x80, zeros, then the bit length as a 64-bit big-endian number (FIPS 180-4 5.1.1).
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = bytes.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(padded.length - 4, bits >>> 0);
  const h = Uint32Array.from(H0);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block += 1) {
    for (let t = 0; t < 16; t += 1) w[t] = view.getUint32(block * 64 + t * 4);
    for (let t = 16; t < 64; t += 1) {
      const w15 = w[t - 15] as number;
      const w2 = w[t - 2] as number;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let t = 0; t < 64; t += 1) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + (K[t] as number) + (w[t] as number)) >>> 0;
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    const out = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i += 1) h[i] = ((h[i] as number) + (out[i] as number)) >>> 0;
  }
  let hex = "";
  for (const word of h) hex += word.toString(16).padStart(8, "0");
  return hex;
}
