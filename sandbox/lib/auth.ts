// Bearer-key authentication (openapi.json bearerAuth): exactly `Bearer <key>` with one space, key
// among the known keys.
import { ApiError } from "./api-error";

/**
 * Returns the key from an Authorization header value, or throws 401 `unauthorized`.
 * openapi.json bearerAuth: missing header, no `Bearer ` prefix, a key alone, other spacing, an
 * empty or unknown key all give 401. The key never appears in the error message.
 */
export function authenticate(header: string | undefined, keys: ReadonlySet<string>): string {
  if (header === undefined || header === "") {
    throw unauthorized("Missing Authorization header. Send 'Authorization: Bearer <API key>'.");
  }
  if (!header.startsWith("Bearer ")) {
    throw unauthorized("The Authorization header must be 'Bearer <API key>'.");
  }
  const key = header.slice("Bearer ".length);
  if (key === "") throw unauthorized("The API key is empty.");
  if (/\s/.test(key)) {
    throw unauthorized(
      "The Authorization header must have exactly one space between 'Bearer' and the key.",
    );
  }
  if (!keys.has(key)) throw unauthorized("The API key is invalid or has been revoked.");
  return key;
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, "unauthorized", message, undefined, {
    "WWW-Authenticate": 'Bearer realm="kaisha-sandbox"',
  });
}
