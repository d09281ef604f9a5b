// The `reason` field of list-type responses (openapi.json EmptyReason).

export interface EmptyReason {
  code: "no_results";
  message: string;
}

/**
 * null when the body data has at least one element; otherwise `{code: "no_results", message}`.
 * openapi.json EmptyReason: no_results covers both "no coverage" and "conditions matched nothing".
 * @example reasonFor(periods.length, "No financial periods match the conditions.")
 */
export function reasonFor(
  count: number,
  message = "No data matched the conditions.",
): EmptyReason | null {
  return count > 0 ? null : { code: "no_results", message };
}
