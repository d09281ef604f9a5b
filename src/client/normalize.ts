// Excel inputs -> API parameter values: security and EDINET codes (a refusal is a ValidationError).

import { ValidationError } from "./errors";
import { isBlank, normalizeText } from "../util/normalize";

/** openapi.json info.description: identifier formats. */
const SECURITY_CODE_PATTERN = /^[0-9A-Z]{4,5}$/;
const EDINET_CODE_PATTERN = /^[EG]\d{5}$/;

function fail(
  param: string,
  expected: string,
  reason: "invalid_format" | "invalid_type" = "invalid_format",
  value?: unknown,
): never {
  throw new ValidationError([{ param, reason, expected }], { values: { [param]: value } });
}

/**
 * A code as the API wants it: 7203 -> "7203", " 130a " -> "130A", "Ｅ０２１４４" -> "E02144".
 * @internal The sandbox reads codes as the client does; tests check it directly.
 */
export function normalizeCode(value: unknown, param = "code"): string {
  if (typeof value === "number" && !Number.isInteger(value))
    fail(param, "a 4-5 character code such as 7203", "invalid_format", value);
  const text = normalizeText(value);
  if (text === undefined) {
    if (isBlank(value)) throw new ValidationError([{ param, reason: "missing" }]);
    fail(param, "a 4-5 character code such as 7203", "invalid_type", value);
  }
  return text.toUpperCase();
}

/** A company given either way. */
export type CompanyRef = { security_code: string } | { edinet_code: string };

/**
 * A company from a cell: EDINET code ("E02144") or security code (7203, "7203", "130A").
 *
 * @example normalizeCompany(7203) // { security_code: "7203" }
 */
export function normalizeCompany(value: unknown, param = "company"): CompanyRef {
  const code = normalizeCode(value, param);
  if (EDINET_CODE_PATTERN.test(code)) return { edinet_code: code };
  if (SECURITY_CODE_PATTERN.test(code)) return { security_code: code };
  return fail(
    param,
    "a security code such as 7203 or an EDINET code such as E02144",
    "invalid_format",
    value,
  );
}
