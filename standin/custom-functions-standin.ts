// The preview page's stand-in for Excel's `CustomFunctions` global: loaded before the functions bundle,
// it captures each `CustomFunctions.associate` so the page can call the real implementations.

import { ErrorCode, StandInError } from "./custom-function-error";

/** What the functions bundle registered, by function id (upper case, as in functions.json). */
export type Registry = Map<string, (...args: unknown[]) => unknown>;

export interface CustomFunctionsStandIn {
  associate(id: string | Record<string, (...args: unknown[]) => unknown>, fn?: unknown): void;
  Error: typeof StandInError;
  ErrorCode: typeof ErrorCode;
  /** Not part of Excel's API: where the preview finds the implementations. */
  readonly registry: Registry;
}

/** Builds a stand-in with an empty registry. */
export function createStandIn(): CustomFunctionsStandIn {
  const registry: Registry = new Map();
  const add = (id: string, fn: unknown) => {
    if (typeof fn !== "function")
      throw new TypeError(`CustomFunctions.associate: ${id} is not a function`);
    registry.set(id.toUpperCase(), fn as (...args: unknown[]) => unknown);
  };
  return {
    associate(id, fn) {
      if (typeof id === "string") add(id, fn);
      else for (const [key, value] of Object.entries(id)) add(key, value);
    },
    Error: StandInError,
    ErrorCode,
    registry,
  };
}

/** The stand-in the page installed, if any. */
export function installedStandIn(): CustomFunctionsStandIn | undefined {
  const existing = (globalThis as { CustomFunctions?: Partial<CustomFunctionsStandIn> })
    .CustomFunctions;
  return existing?.registry instanceof Map ? (existing as CustomFunctionsStandIn) : undefined;
}

/**
 * Office.js, loaded before this file, defines a bare `CustomFunctions` (associate only, storing into
 * its own table) even outside Excel: take it over so the preview sees every association, and give it
 * the `Error` and `ErrorCode` the real runtime has.
 */
function adopt(existing: Partial<CustomFunctionsStandIn>): void {
  const standIn = createStandIn();
  Object.assign(existing, {
    associate: standIn.associate,
    registry: standIn.registry,
    Error: existing.Error ?? standIn.Error,
    ErrorCode: existing.ErrorCode ?? standIn.ErrorCode,
  });
}

// Installed at load time (this file is its own entry, before functions.js).
const current = (globalThis as { CustomFunctions?: Partial<CustomFunctionsStandIn> })
  .CustomFunctions;
if (current === undefined) {
  (globalThis as { CustomFunctions?: unknown }).CustomFunctions = createStandIn();
} else if (!(current.registry instanceof Map)) {
  adopt(current);
}
