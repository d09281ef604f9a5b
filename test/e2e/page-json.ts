// A page's answer carried to the test as one JSON string: for the stand-in's large answers.
import type { Page } from "playwright-core";

/** What an undefined property travels as (a string of the page's own is refused, never read as it). */
const UNDEFINED_MARKER = "\u0000evaluateJson:undefined";

/** `value` with every property holding the marker set back to undefined (the key kept). */
function withUndefined(value: unknown): unknown {
  if (value === UNDEFINED_MARKER) return undefined;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (const item of value) withUndefined(item);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (record[key] === UNDEFINED_MARKER) record[key] = undefined;
    else withUndefined(record[key]);
  }
  return value;
}

/**
 * `page.evaluate(fn, arg)`, its answer (plain data: an object or array) carried as one JSON string.
 * Playwright carries an evaluate's answer as a tree of typed nodes that its client validates node
 * by node (and its server relays as JSON once more): a company sheet's used range read cell by cell
 * is ~2.7 MB of such nodes, a second of the test process's CPU. Exactness: the page refuses
 * anything JSON would change (non-finite numbers, -0, undefined in an array, a Date or other
 * non-plain object), and a property whose value is undefined (an empty cell's `formula`) comes
 * back as such a property, not left out (`toMatchObject({ formula: undefined })` tells them apart):
 * the answer is the one `page.evaluate` gives or the call fails.
 */
export async function evaluateJson<R, A>(
  page: Page,
  fn: (arg: A) => R | Promise<R>,
  arg: A,
): Promise<R> {
  // Playwright's PageFunction type is not exported; `fn` is one for plain-data `arg`.
  const handle = await page.evaluateHandle(fn as (arg: unknown) => unknown, arg);
  try {
    const text = await handle.evaluate(
      (value, marker) =>
        JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
          const raw = (this as Record<string, unknown>)[key];
          const plain =
            raw === null ||
            typeof raw !== "object" ||
            Array.isArray(raw) ||
            [Object.prototype, null].includes(Object.getPrototypeOf(raw) as object | null);
          const exact =
            typeof v === "number"
              ? Number.isFinite(v) && !Object.is(v, -0)
              : v !== undefined || !Array.isArray(this);
          if (!plain || !exact || typeof v === "function" || typeof v === "bigint" || v === marker)
            throw new Error(`evaluateJson: ${key} is not plain JSON data`);
          // An undefined property, which JSON would leave out: carried as the marker.
          return v === undefined ? marker : v;
        }),
      UNDEFINED_MARKER,
    );
    return withUndefined(JSON.parse(text)) as R;
  } finally {
    await handle.dispose();
  }
}
