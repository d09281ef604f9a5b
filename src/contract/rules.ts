// Types of the generated parameter-rule and field tables (src/contract/generated/ imports them, never
// the other way round).
import type { operations } from "./generated/api-types";

/**
 * operationId of an endpoint (openapi.json paths); also the client's endpoint id and cache-TTL key.
 */
export type OperationId = Extract<keyof operations, string>;

/**
 * Constraints of one parameter, copied from openapi.json (openapi.json parameters).
 *
 * @example
 * { name: "years", in: "query", required: false, type: "integer", minimum: 1, maximum: 30, default: 10 }
 */
export type ParamRule = {
  name: string;
  in: "query" | "path";
  required: boolean;
  type: "string" | "integer" | "number";
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  enum?: readonly string[];
  default?: string | number;
  format?: string;
  /**
   * Earliest accepted date (YYYY-MM-DD, inclusive) for date values (openapi.json parameter
   * descriptions: 2005-01-01).
   */
  minDate?: string;
  /** Date values must not lie in the future (JST; openapi.json getScreening as_of). */
  notFuture?: boolean;
};

/**
 * Method, path template and parameters of one operation. `exactlyOneOf` lists parameters of which
 * exactly one must be given (openapi.json getFinancials: edinet_code / security_code on
 * /financials); OpenAPI cannot express it, so openapi.json carries it as `x-exactly-one-of`.
 */
export type OperationRule = {
  method: "GET";
  /** Path template relative to the base URL, e.g. "/securities/{code}/prices". */
  path: string;
  params: readonly ParamRule[];
  exactlyOneOf?: readonly string[];
};

/** Datasets of the field dictionary (numeric columns a user can pick). */
export type Dataset =
  "financials" | "valuations" | "prices" | "segments" | "dividends" | "margin" | "jsf";

/**
 * How a financials item adds up over the last twelve months (openapi.json FinancialsPeriod
 * `x-ltm-kind`): a flow sums four quarters, a stock is read at the latest balance, none has no LTM.
 */
type LtmKind = "flow" | "stock" | "none";

/**
 * A yen figure that is no amount of money (openapi.json `x-money-kind` on every `x-unit: "jpy"`
 * property): a price per share or a figure per person, which stays in yen whatever money unit a
 * table or function is given. An `amount` (scaled by a money unit) carries no kind.
 */
type MoneyKind = "per_share" | "per_person";

/**
 * A numeric field: API key, Japanese label and unit id (openapi.json FieldUnit), for a yen field
 * that is no amount its money kind, and for financials items their LTM kind.
 */
export type FieldInfo = {
  key: string;
  label: string;
  unit: string;
  money?: MoneyKind;
  ltm?: LtmKind;
};

