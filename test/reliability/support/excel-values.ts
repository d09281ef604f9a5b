// What Excel accepts back from a custom function, and hostile arguments it might pass in.
import fc from "fast-check";

/** Excel's cell text limit. */
const MAX_CELL_CHARS = 32_767;

function cellProblem(cell: unknown): string | undefined {
  if (typeof cell === "number")
    return Number.isFinite(cell) ? undefined : `non-finite number ${cell}`;
  if (typeof cell === "string")
    return cell.length <= MAX_CELL_CHARS ? undefined : `text of ${cell.length} characters`;
  if (typeof cell === "boolean") return undefined;
  if (typeof cell === "object" && cell !== null && !Array.isArray(cell)) {
    const v = cell as {
      type?: unknown;
      basicValue?: unknown;
      text?: unknown;
      properties?: unknown;
    };
    if (v.type === "Double") {
      return typeof v.basicValue === "number" && Number.isFinite(v.basicValue)
        ? undefined
        : "bad formatted number";
    }
    if (v.type === "Entity") {
      return typeof v.text === "string" && typeof v.properties === "object"
        ? undefined
        : "bad entity";
    }
    if (v.type === "String" || v.type === "Boolean") return undefined;
  }
  return `not an Excel value: ${JSON.stringify(cell)?.slice(0, 80) ?? String(cell)}`;
}

/**
 * Why `value` is not something Excel can show (undefined when it is): a scalar, a formatted number,
 * an entity, or a non-empty rectangular 2-D array of those.
 */
export function excelValueProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return cellProblem(value);
  if (value.length === 0) return "empty array";
  const width = Array.isArray(value[0]) ? (value[0] as unknown[]).length : -1;
  if (width <= 0) return "first row is not a non-empty array";
  for (const row of value as unknown[]) {
    if (!Array.isArray(row) || row.length !== width) return "ragged 2-D array";
    for (const cell of row) {
      const problem = cellProblem(cell);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

/** The cell error codes that carry a message in Excel (functions/excel-errors.ts). */
const MESSAGE_ERROR_CODES = ["#VALUE!", "#N/A"];

/**
 * Why a thrown value is not a proper cell error (undefined when it is): it must have one of the
 * message-carrying codes and a non-empty message.
 */
export function cellErrorProblem(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return `threw ${String(error)}`;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== "string" || !MESSAGE_ERROR_CODES.includes(code)) {
    return `threw a non-cell error: ${error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error)}`;
  }
  if (typeof message !== "string" || message.trim() === "") return `${code} without a message`;
  return undefined;
}

/** Scalars Excel may pass, and things it should never pass but a caller might. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    "",
    " ",
    "\t\n",
    0,
    -0,
    -1,
    1,
    7203,
    7203.5,
    130,
    1e21,
    Number.MAX_SAFE_INTEGER,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    true,
    false,
    "TRUE",
    "#N/A",
    "#VALUE!",
    "７２０３",
    "E02144",
    "e02144",
    "130a",
    " 7203 ",
    "72 03",
    "S100ABCD",
    "20261101120000",
    "100001",
    "sales",
    "*",
    "per_5y_avg",
    "2024/03",
    "2024-03-31",
    "9999-99-99",
    "LTM",
    "Q4",
    "quarterly",
    "\u0000",
    "\uD800",
    "🍣🍣🍣🍣",
    "٧٢٠٣",
    "Ⅶ",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "a,b,,c",
    "%00",
  ),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double(),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.nat({ max: 70_000 }).map((n) => "7".repeat(n)),
  fc.date({ noInvalidDate: false }),
  fc.constantFrom<unknown>(
    {},
    { type: "Error", errorType: "NotAvailable" },
    { code: "#N/A", message: "upstream error" },
    { type: "Double", basicValue: 7203 },
    Object.create(null) as unknown,
    () => 1,
    Symbol("s"),
    BigInt(7203),
  ),
);

/** Ranges as Excel passes them (2-D arrays), including degenerate and nested ones. */
const hostileRange: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    [],
    [[]],
    [[null]],
    [["7203"]],
    [[7203]],
    [[[7203]]],
    [["sales", "net_income"]],
  ),
  fc.array(fc.array(hostileScalar, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
);

/** Any argument: mostly scalars, sometimes a range. */
export const hostileArgument: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 1, arbitrary: hostileRange },
);
