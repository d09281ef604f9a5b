// The error text of a cell, whichever side produced it.

/**
 * The error text of a cell, or undefined for a value: a cell error (code + message) as the
 * functions throw it, or what `recalculate` recorded for a rejection.
 */
export function cellErrorText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as { thrown?: unknown; code?: unknown; message?: unknown };
  if (typeof v.thrown === "string") return v.thrown;
  if (typeof v.code === "string" && typeof v.message === "string" && v.code.startsWith("#")) {
    return `${v.code} ${v.message}`;
  }
  return undefined;
}
