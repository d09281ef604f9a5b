// Estimates the cost of a refresh: the number of distinct API requests the workbook's KAISHA formulas need.

/**
 * Splits the argument list of the first KAISHA call at top-level commas (quotes and parentheses
 * respected); `end` is the index just after its closing parenthesis.
 */
export function parseKaishaCall(
  formula: string,
): { name: string; args: string[]; start: number; end: number } | undefined {
  const m = /KAISHA\.([A-Z]+)\s*\(/i.exec(formula);
  if (!m || m.index === undefined) return undefined;
  const args: string[] = [];
  let depth = 0;
  let inQuote = false;
  let current = "";
  for (let i = m.index + m[0].length; i < formula.length; i++) {
    const ch = formula.charAt(i);
    if (inQuote) {
      current += ch;
      if (ch === '"') {
        if (formula.charAt(i + 1) === '"') {
          current += '"';
          i++;
        } else {
          inQuote = false;
        }
      }
      continue;
    }
    if (ch === '"') {
      inQuote = true;
      current += ch;
    } else if (ch === "(") {
      depth++;
      current += ch;
    } else if (ch === ")") {
      if (depth === 0) {
        args.push(current.trim());
        return {
          name: (m[1] ?? "").toUpperCase(),
          args: args.length === 1 && args[0] === "" ? [] : args,
          start: m.index,
          end: i + 1,
        };
      }
      depth--;
      current += ch;
    } else if (ch === "," && depth === 0) {
      args.push(current.trim());
      current = "";
    } else {
      current += ch;
    }
  }
  return undefined;
}

function literal(arg: string | undefined, sheet: string): string {
  if (arg === undefined || arg === "") return "";
  const m = /^"(.*)"$/.exec(arg);
  if (m) return (m[1] ?? "").replace(/""/g, '"').toUpperCase();
  if (/^-?\d+(\.\d+)?$/.test(arg)) return arg;
  // A reference or expression: the same text on the same sheet is the same value.
  return `${sheet}!${arg.replace(/\$/g, "").toUpperCase()}`;
}

/** Functions answered without a request (FIELDS reads the contract). */
const FREE = new Set(["FIELDS"]);

/**
 * The request a formula needs, as a key: formulas with the same key share one request (the client
 * coalesces and caches them). FINANCIAL cells of one company and period share one /financials call.
 */
function requestKey(formula: string, sheet: string): string | undefined {
  const call = parseKaishaCall(formula);
  if (!call || FREE.has(call.name)) return undefined;
  const arg = (i: number): string => literal(call.args[i], sheet);
  switch (call.name) {
    case "FINANCIAL": {
      const period = arg(3).toLowerCase() || "annual";
      return `financials|${arg(0)}|${period === "ltm" ? "quarterly" : period}`;
    }
    case "FINANCIALS":
      return `financials|${arg(0)}|${arg(2).toLowerCase() || "annual"}|${arg(4)}`;
    case "VALUATION":
      return `valuations|${arg(0)}`;
    case "PRICE":
      return `prices|${arg(0)}`;
    default:
      return `${call.name}|${call.args.map((_, i) => arg(i)).join("|")}`;
  }
}

/** Distinct requests for a set of formulas. */
export function estimateRefreshCost(cells: readonly { formula: string; sheet: string }[]): number {
  const keys = new Set<string>();
  for (const c of cells) {
    const k = requestKey(c.formula, c.sheet);
    if (k !== undefined) keys.add(k);
  }
  return keys.size;
}
