// Secret redaction: every text that can leave the client (error messages, details, causes) passes here.

const REDACTED = "[REDACTED]";
/** Keys shorter than this are not treated as secrets (replacing "a" everywhere would mangle text). */
const MIN_SECRET_LENGTH = 8;
/** Bounded so a long-lived runtime that rotates keys does not grow without limit. */
const MAX_REMEMBERED = 16;

const remembered: string[] = [];

/**
 * Remembers an API key so that every KaishaError created afterwards redacts it, wherever it came
 * from (the client calls this whenever it reads a key).
 */
export function rememberSecret(secret: string | undefined): void {
  if (secret === undefined || secret.length < MIN_SECRET_LENGTH) return;
  const at = remembered.indexOf(secret);
  if (at >= 0) remembered.splice(at, 1);
  remembered.push(secret);
  if (remembered.length > MAX_REMEMBERED) remembered.shift();
}

function variants(secret: string): string[] {
  // The key may also appear percent-encoded (for example inside a URL someone logged).
  const encoded = encodeURIComponent(secret);
  return encoded === secret ? [secret] : [secret, encoded];
}

/**
 * openapi.json bearerAuth: a key is 52 characters starting with a 9-character prefix ending in
 * `key_`. Anything of that shape is redacted even when the client never saw it (a key pasted into a
 * cell).
 */
const KEY_SHAPE = /[A-Za-z0-9_-]{5}key_[A-Za-z0-9_-]{20,}/g;

/** Replaces every remembered secret (and `extra` ones) in `text` with "[REDACTED]". */
export function redactText(text: string, extra: readonly string[] = []): string {
  let out = text.replace(KEY_SHAPE, REDACTED);
  for (const secret of [...remembered, ...extra]) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of variants(secret)) {
      if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

/** True when `text` contains a remembered secret or one of `extra`. */
export function containsSecret(text: string, extra: readonly string[] = []): boolean {
  return redactText(text, extra) !== text;
}

/** Deep copy of JSON-like data with every string redacted. */
export function redactValue<T>(value: T, extra: readonly string[] = []): T {
  if (typeof value === "string") return redactText(value, extra) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactValue(v, extra)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactText(k, extra)] = redactValue(v, extra);
    return out as T;
  }
  return value;
}
