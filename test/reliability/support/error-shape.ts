// Checks that a body is openapi.json's ErrorResponse `{error: {code, message, details?}}`
// (openapi.json ErrorResponse).

/** openapi.json ErrorResponse: the reasons allowed in `error.details[].reason`. */
const DETAIL_REASONS = [
  "missing",
  "conflict",
  "invalid_type",
  "invalid_format",
  "out_of_range",
  "unknown_value",
  "too_many_items",
  "invalid",
] as const;

/**
 * Returns the problems with `body` as the common error object, or [] when it is one. Only `error` may
 * appear at the top level; `details`, when present, is an array of `{param, reason, expected?}`.
 */
export function errorShapeProblems(body: unknown): string[] {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return ["body is not an object"];
  const problems: string[] = [];
  const top = Object.keys(body);
  if (top.length !== 1 || top[0] !== "error")
    problems.push(`top-level keys ${JSON.stringify(top)}`);
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return [...problems, "error is not an object"];
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== "string" || code === "")
    problems.push("error.code is not a non-empty string");
  if (typeof message !== "string" || message === "")
    problems.push("error.message is not a non-empty string");
  for (const key of Object.keys(error)) {
    if (!["code", "message", "details"].includes(key)) problems.push(`unexpected error.${key}`);
  }
  if (details !== undefined) {
    if (!Array.isArray(details)) return [...problems, "error.details is not an array"];
    for (const detail of details as unknown[]) {
      const d = detail as Record<string, unknown>;
      if (typeof d !== "object" || d === null) problems.push("a detail is not an object");
      else {
        if (typeof d["param"] !== "string") problems.push("detail.param is not a string");
        if (!(DETAIL_REASONS as readonly unknown[]).includes(d["reason"])) {
          problems.push(`detail.reason ${JSON.stringify(d["reason"])} is not a spec reason`);
        }
        if (d["expected"] !== undefined && typeof d["expected"] !== "string") {
          problems.push("detail.expected is not a string");
        }
      }
    }
  }
  return problems;
}
