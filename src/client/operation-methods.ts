// The client's one method per operation, derived from the contract's OPERATIONS table: none is written by hand.

import { OPERATIONS } from "../contract/generated/param-rules";
import type { OperationId } from "../contract/rules";
import type { ParamsOf, RequestOptions, ResponseOf } from "./types";

/** Operations whose method name is not their operationId without get/list (names the app uses). */
const RENAMED = {
  getPersonCompensationHistory: "personCompensation",
  getWeeklyMarginBalance: "weeklyMargin",
} as const satisfies Partial<Record<OperationId, string>>;
type Renamed = typeof RENAMED;

/** An operation's method name: its operationId without "get"/"list", e.g. listSecurities -> securities. */
type MethodName<O extends OperationId> = O extends keyof Renamed
  ? Renamed[O]
  : O extends `get${infer Rest}`
    ? Uncapitalize<Rest>
    : O extends `list${infer Rest}`
      ? Uncapitalize<Rest>
      : O;

/**
 * An operation's method: `(options?)` when it takes no parameters (usage, screeningFields),
 * `(q?, options?)` when none is required (screening, securities), else `(q, options?)`.
 */
type MethodOf<O extends OperationId> = [keyof ParamsOf<O>] extends [never]
  ? (options?: RequestOptions) => Promise<ResponseOf<O>>
  : Record<never, never> extends ParamsOf<O>
    ? (q?: ParamsOf<O>, options?: RequestOptions) => Promise<ResponseOf<O>>
    : (q: ParamsOf<O>, options?: RequestOptions) => Promise<ResponseOf<O>>;

/**
 * One method per operation of openapi.json, typed from it: a new operation in the contract is a
 * new method with no code written (`request` does the work).
 *
 * @example await client.financials({ security_code: "7203" }); // request("getFinancials", …)
 */
export type OperationMethods = { [O in OperationId as MethodName<O>]: MethodOf<O> };

function methodName(opId: OperationId): string {
  const renamed = (RENAMED as Partial<Record<OperationId, string>>)[opId];
  if (renamed !== undefined) return renamed;
  const rest = opId.replace(/^(get|list)/, "");
  return rest.charAt(0).toLowerCase() + rest.slice(1);
}

interface Requester {
  request(opId: OperationId, params: object, options?: RequestOptions): Promise<unknown>;
}

/** Defines every operation's method on `prototype`, each calling `this.request(operationId, …)`. */
export function defineOperationMethods(prototype: Requester): void {
  for (const opId of Object.keys(OPERATIONS) as OperationId[]) {
    const method =
      OPERATIONS[opId].params.length === 0
        ? function (this: Requester, options?: RequestOptions) {
            return this.request(opId, {}, options);
          }
        : function (this: Requester, q: object = {}, options?: RequestOptions) {
            return this.request(opId, q, options);
          };
    Object.defineProperty(prototype, methodName(opId), {
      value: method,
      writable: true,
      configurable: true,
    });
  }
}
