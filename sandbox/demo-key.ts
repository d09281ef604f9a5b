// The sandbox's built-in demo API key and the key-shape check from openapi.json bearerAuth.

/**
 * openapi.json bearerAuth: a fixed 9-character prefix ending in `key_`, then 43 characters (52 in
 * all).
 */
export const KEY_PREFIX = "kaisakey_";

/**
 * The key every sandbox accepts unless `apiKeys` says otherwise. Not a secret: it only opens the
 * local sandbox, which serves fictional data.
 */
export const DEMO_API_KEY = `${KEY_PREFIX}SandboxDemoKeyForKaishaExcelLocalTesting001`;

const KEY_SHAPE = /^[A-Za-z0-9]{5}key_[A-Za-z0-9_-]{43}$/;

/**
 * True when `key` has the shape of a service key (openapi.json bearerAuth): 52 characters, a
 * 9-character prefix ending in `key_`. Shape only: says nothing about whether the key is valid.
 * @example isKeyShaped(DEMO_API_KEY) // true
 */
export function isKeyShaped(key: string): boolean {
  return KEY_SHAPE.test(key);
}
