// Calls a KAISHA function with named arguments (its own parameter names), so tests survive new
// optional parameters being inserted; the first parameter (the company, code or id) is positional.
import { invocation } from "./harness";

type Fn = (...args: never[]) => unknown;

/** Parameter names of a compiled function, from its source text. */
function parameterNames(fn: Fn): string[] {
  const text = fn.toString();
  const open = text.indexOf("(");
  const close = text.indexOf(")", open);
  return text
    .slice(open + 1, close)
    .split(",")
    .map((p) => p.trim().split(/[\s=:]/)[0] ?? "")
    .filter((p) => p !== "");
}

/**
 * `call(KAISHA.FINANCIALS, "7203", { items: "sales", headers: 2 })`: omitted arguments are null, as
 * Excel passes them; the last parameter gets an invocation. An unknown name fails the test.
 */
export function call<T = unknown>(
  fn: Fn,
  first: unknown,
  named: Readonly<Record<string, unknown>> = {},
): Promise<T> {
  const names = parameterNames(fn);
  for (const key of Object.keys(named)) {
    if (!names.includes(key))
      throw new Error(`${fn.name} has no parameter ${key}: ${names.join(", ")}`);
  }
  const args = names.map((name, i) =>
    i === 0 ? first : i === names.length - 1 ? invocation() : (named[name] ?? null),
  );
  // A single-value function may answer with the value itself (Excel sets it at once): a promise here.
  return Promise.resolve((fn as (...a: unknown[]) => T | Promise<T>)(...args));
}
