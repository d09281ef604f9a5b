// Validated request parameters, read by name with the type the contract gave them.
import { ApiError } from "./api-error";

/** A validated parameter value (defaults applied); absent optional parameters have no entry. */
export type ParamValue = string | number;

/**
 * Parameters of one request after contract validation (lib/validate-params.ts). Accessors throw
 * a 500-free programming error only if a route asks for a parameter the contract does not define.
 */
export class Params {
  constructor(readonly values: ReadonlyMap<string, ParamValue>) {}

  /** True when the parameter was given or has a default. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The string value, or undefined when absent. */
  str(name: string): string | undefined {
    const value = this.values.get(name);
    return value === undefined ? undefined : String(value);
  }

  /** The string value of a parameter the contract makes required or gives a default. */
  reqStr(name: string): string {
    const value = this.str(name);
    if (value === undefined) throw ApiError.param(name, "missing");
    return value;
  }

  /** The numeric value, or undefined when absent. */
  num(name: string): number | undefined {
    const value = this.values.get(name);
    if (value === undefined) return undefined;
    return typeof value === "number" ? value : Number(value);
  }

  /** The numeric value of a parameter the contract makes required or gives a default. */
  reqNum(name: string): number {
    const value = this.num(name);
    if (value === undefined) throw ApiError.param(name, "missing");
    return value;
  }

  /** Every value except those named, as a plain object (for cursor binding). */
  conditions(except: readonly string[]): Record<string, ParamValue> {
    const out: Record<string, ParamValue> = {};
    for (const [name, value] of [...this.values].sort(([a], [b]) => a.localeCompare(b))) {
      if (!except.includes(name)) out[name] = value;
    }
    return out;
  }
}
