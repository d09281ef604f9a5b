// What a route module declares: the operation it serves and a handler returning the 200 body.
import type { operations } from "../../src/contract/generated/api-types";
import type { Dataset } from "../data/model";
import type { Params } from "./params";
import type { RateLimiter } from "./rate-limiter";

/** Every operationId of the contract. */
export type OperationId = keyof operations;

/** The JSON body of an operation's 200 response, as the contract types it. */
export type SuccessBody<Op extends OperationId> = operations[Op] extends {
  responses: { 200: { content: { "application/json": infer Body } } };
}
  ? Body
  : never;

/** Mutable per-app state the handlers read (data clock, availability switches, counters). */
export interface SandboxState {
  /** The deterministic dataset (built on first use). */
  dataset(): Dataset;
  /** Data clock, ISO 8601 UTC. */
  now(): string;
  /** false: rankings answer 503 data_unavailable (openapi.json getRankings). */
  priceDataAvailable: boolean;
  limiter: RateLimiter;
}

/** What a handler gets for one request. */
export interface RouteContext {
  operationId: OperationId;
  params: Params;
  state: SandboxState;
  /** The authenticated key (never to be logged or echoed). */
  key: string;
  /**
   * Offset from the `cursor` parameter (0 without one) and the hash that binds next cursors to
   * this request's conditions (every parameter except `cursor`).
   */
  page(): { offset: number; hash: string };
}

/** A route module's declaration. */
export interface RouteDef<Op extends OperationId = OperationId> {
  operationId: Op;
  /**
   * false for GET /usage, which never consumes the daily limit (openapi.json getUsage, bearerAuth).
   */
  countsDaily?: boolean;
  /**
   * Path parameters whose value outside the contract enum means 404 rather than 400
   * (openapi.json getRankings: unknown ranking metric -> 404).
   */
  notFoundOnUnknown?: readonly string[];
  handle(ctx: RouteContext): SuccessBody<Op> | Promise<SuccessBody<Op>>;
}

/** Type-checks a route's body against its operation, then erases the operation type. */
export function defineRoute<Op extends OperationId>(def: RouteDef<Op>): RouteDef {
  return def as unknown as RouteDef;
}
