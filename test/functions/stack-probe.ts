// Call stacks captured at probe points inside the product, read as the product files they pass
// through (test/functions/warm-path.test.ts, cold-path.test.ts).
import { join } from "node:path";

/** The repository's root (this file is test/functions/stack-probe.ts). */
export const ROOT = `${join(__dirname, "..", "..")}/`;

/** The current call stack, deep enough for a cell's whole path (async frames included). */
export function captureStack(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  const stack = new Error("probe").stack ?? "";
  Error.stackTraceLimit = limit;
  return stack;
}

/** A product source file of the repository (not a test, a dependency or Node's own), relative. */
export function productFile(url: string): string | undefined {
  const path = url.startsWith("file://") ? url.slice("file://".length) : url;
  if (!path.startsWith(ROOT) || path.includes("/node_modules/")) return undefined;
  const rel = path.slice(ROOT.length);
  return rel.startsWith("test/") ? undefined : rel;
}

/** The product files of a stack, outermost call first, each run of one file as one entry. */
export function filesOnStack(stack: string): string[] {
  const files: string[] = [];
  for (const line of stack.split("\n").reverse()) {
    const at = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(line.trim());
    const file = at?.[1] === undefined ? undefined : productFile(at[1]);
    if (file !== undefined && files[files.length - 1] !== file) files.push(file);
  }
  return files;
}
