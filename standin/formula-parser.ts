// A small parser for the formulas the preview grid accepts: `=KAISHA.FINANCIALS(7203,"sales",,5)`,
// with strings, numbers, booleans, omitted arguments, cell references, ranges, array constants,
// nested calls (DATE(2024,3,31), IF, MEDIAN…), parentheses and Excel's operators (+ - * / ^ & and
// comparisons, by Excel's precedence). Anything else is a syntax error, as Excel would refuse it.
import { columnIndex, columnLetter } from "../taskpane/state/a1";

/** A cell position, 0-based. */
export interface CellPosition {
  row: number;
  col: number;
}

type Literal = string | number | boolean;

export type Expr =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "boolean"; value: boolean }
  | { kind: "omitted" }
  | { kind: "ref"; at: CellPosition }
  | { kind: "range"; from: CellPosition; to: CellPosition }
  | { kind: "array"; rows: Literal[][] }
  | { kind: "call"; name: string; args: Expr[] }
  | { kind: "unary"; op: "-" | "+"; arg: Expr }
  | { kind: "binary"; op: BinaryOperator; left: Expr; right: Expr };

/** Excel's binary operators (Microsoft Support, "Calculation operators and precedence in Excel"). */
export type BinaryOperator =
  "+" | "-" | "*" | "/" | "^" | "&" | "=" | "<>" | "<" | ">" | "<=" | ">=";

/**
 * Binary operators from the loosest to the tightest binding, as Excel ranks them: comparison, then
 * `&`, then `+ -`, then `* /`, then `^` (negation binds tighter than all of them, so -2^2 is 4).
 */
const PRECEDENCE: readonly (readonly BinaryOperator[])[] = [
  ["=", "<>", "<=", ">=", "<", ">"],
  ["&"],
  ["+", "-"],
  ["*", "/"],
  ["^"],
];

/** What a cell holds once its input is read: a formula or a constant. */
export type CellInput =
  { kind: "formula"; expr: Expr } | { kind: "constant"; value: Literal } | { kind: "empty" };

/** A formula Excel would refuse; `position` is the 0-based offset in the input. */
export class FormulaSyntaxError extends Error {
  override readonly name = "FormulaSyntaxError";
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.position = position;
  }
}

const MAX_COLUMNS = 16384; // Excel's XFD
const MAX_ROWS = 1048576;

/** {row: 0, col: 0} -> "A1". */
export function cellAddress(at: CellPosition): string {
  return `${columnLetter(at.col)}${at.row + 1}`;
}

/** "B3" -> {row: 2, col: 1}; undefined when it is not an A1 address inside Excel's grid. */
export function parseAddress(text: string): CellPosition | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$/.exec(text.trim());
  if (!m || !m[1] || !m[2]) return undefined;
  const col = columnIndex(m[1]);
  const row = Number(m[2]) - 1;
  if (col < 0 || col >= MAX_COLUMNS || row < 0 || row >= MAX_ROWS) return undefined;
  return { row, col };
}

class Parser {
  private pos = 0;

  constructor(private readonly src: string) {}

  parseFormula(): Expr {
    const expr = this.expression();
    this.skipSpace();
    if (this.pos < this.src.length) this.fail(`Unexpected "${this.src[this.pos]}"`);
    return expr;
  }

  private fail(message: string): never {
    throw new FormulaSyntaxError(message, this.pos);
  }

  private skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos] ?? "")) this.pos++;
  }

  private peek(): string {
    this.skipSpace();
    return this.src[this.pos] ?? "";
  }

  private expression(level = 0): Expr {
    const ops = PRECEDENCE[level];
    if (!ops) return this.unary();
    let left = this.expression(level + 1);
    for (;;) {
      this.skipSpace();
      const op = ops.find((o) => this.src.startsWith(o, this.pos));
      if (!op) return left;
      this.pos += op.length;
      left = { kind: "binary", op, left, right: this.expression(level + 1) };
    }
  }

  /** A leading sign; `-5` stays the number -5, as the argument lists always read it. */
  private unary(): Expr {
    const ch = this.peek();
    if (ch === "-" || ch === "+") {
      this.pos++;
      const arg = this.unary();
      if (arg.kind === "number")
        return { kind: "number", value: ch === "-" ? -arg.value : arg.value };
      return { kind: "unary", op: ch, arg };
    }
    return this.primary();
  }

  private primary(): Expr {
    const ch = this.peek();
    if (ch === "(") {
      this.pos++;
      const inner = this.expression();
      if (this.peek() !== ")") this.fail('Missing ")"');
      this.pos++;
      return inner;
    }
    if (ch === '"') return { kind: "string", value: this.string() };
    if (ch === "{") return this.array();
    if (ch === "." || /[0-9]/.test(ch)) return { kind: "number", value: this.number() };
    if (/[A-Za-z_$]/.test(ch)) return this.word();
    if (ch === "") this.fail("The formula ends too early");
    return this.fail(`Unexpected "${ch}"`);
  }

  private string(): string {
    this.pos++; // opening quote
    let out = "";
    for (;;) {
      const ch = this.src[this.pos];
      if (ch === undefined) this.fail("A text value is missing its closing quote");
      this.pos++;
      if (ch === '"') {
        if (this.src[this.pos] === '"') {
          out += '"';
          this.pos++;
          continue;
        }
        return out;
      }
      out += ch;
    }
  }

  private number(): number {
    this.skipSpace();
    const m = /^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?%?/.exec(
      this.src.slice(this.pos),
    );
    if (!m) this.fail("Expected a number");
    this.pos += m[0].length;
    const percent = m[0].endsWith("%");
    const value = Number(percent ? m[0].slice(0, -1) : m[0]);
    if (!Number.isFinite(value)) this.fail("Number out of range");
    return percent ? value / 100 : value;
  }

  private word(): Expr {
    this.skipSpace();
    const start = this.pos;
    const m = /^[A-Za-z_$][A-Za-z0-9_.$]*/.exec(this.src.slice(this.pos));
    if (!m) return this.fail("Expected a name");
    this.pos += m[0].length;
    const word = m[0];
    if (this.peek() === "(") {
      this.pos++;
      return { kind: "call", name: word.toUpperCase(), args: this.args() };
    }
    const upper = word.toUpperCase();
    if (upper === "TRUE" || upper === "FALSE") return { kind: "boolean", value: upper === "TRUE" };
    const at = parseAddress(word);
    if (!at) {
      this.pos = start;
      return this.fail(`Unknown name "${word}" (text needs double quotes)`);
    }
    if (this.peek() === ":") {
      this.pos++;
      this.skipSpace();
      const m2 = /^\$?[A-Za-z]{1,3}\$?[0-9]{1,7}/.exec(this.src.slice(this.pos));
      const to = m2 ? parseAddress(m2[0]) : undefined;
      if (!m2 || !to) return this.fail("Expected a cell address after ':'");
      this.pos += m2[0].length;
      return {
        kind: "range",
        from: { row: Math.min(at.row, to.row), col: Math.min(at.col, to.col) },
        to: { row: Math.max(at.row, to.row), col: Math.max(at.col, to.col) },
      };
    }
    return { kind: "ref", at };
  }

  /** Arguments after "(": an empty slot between commas is an omitted argument, as in Excel. */
  private args(): Expr[] {
    const args: Expr[] = [];
    if (this.peek() === ")") {
      this.pos++;
      return args;
    }
    for (;;) {
      const ch = this.peek();
      args.push(ch === "," || ch === ")" ? { kind: "omitted" } : this.expression());
      const next = this.peek();
      this.pos++;
      if (next === ")") return args;
      if (next !== ",") {
        this.pos--;
        return next === ""
          ? this.fail('Missing ")"')
          : this.fail(`Expected "," or ")" but found "${next}"`);
      }
    }
  }

  private array(): Expr {
    this.pos++; // "{"
    const rows: Literal[][] = [[]];
    for (;;) {
      const ch = this.peek();
      let value: Literal;
      if (ch === '"') value = this.string();
      else if (/[-+.0-9]/.test(ch)) value = this.number();
      else if (/[A-Za-z]/.test(ch)) {
        const m = /^(TRUE|FALSE)\b/i.exec(this.src.slice(this.pos));
        if (!m || !m[1]) return this.fail("Array constants hold numbers, text and TRUE/FALSE only");
        this.pos += m[1].length;
        value = m[1].toUpperCase() === "TRUE";
      } else return this.fail("Expected a value in the array constant");
      rows[rows.length - 1]?.push(value);
      const sep = this.peek();
      this.pos++;
      if (sep === "}") break;
      if (sep === ";") rows.push([]);
      else if (sep !== ",") {
        this.pos--;
        return this.fail('Expected ",", ";" or "}" in the array constant');
      }
    }
    const width = rows[0]?.length ?? 0;
    if (rows.some((r) => r.length !== width))
      this.fail("Array constant rows must have the same length");
    return { kind: "array", rows };
  }
}

/** Parses a formula body (after "="). @throws FormulaSyntaxError */
export function parseFormula(body: string): Expr {
  return new Parser(body).parseFormula();
}

/**
 * Reads what the user typed into a cell: "=..." is a formula; otherwise a number, TRUE/FALSE, or text.
 * @example readCellInput('=KAISHA.PRICE(7203)') // {kind: "formula", expr: {kind: "call", ...}}
 * @throws FormulaSyntaxError for a formula Excel would refuse
 */
export function readCellInput(text: string): CellInput {
  const trimmed = text.trim();
  if (trimmed === "") return { kind: "empty" };
  if (trimmed.startsWith("=")) {
    try {
      return { kind: "formula", expr: parseFormula(trimmed.slice(1)) };
    } catch (err) {
      if (err instanceof FormulaSyntaxError)
        throw new FormulaSyntaxError(err.message, err.position + 1);
      throw err;
    }
  }
  if (/^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(trimmed)) {
    return { kind: "constant", value: Number(trimmed) };
  }
  if (/^(TRUE|FALSE)$/i.test(trimmed)) return { kind: "constant", value: /^TRUE$/i.test(trimmed) };
  return { kind: "constant", value: text };
}

/** Every cell position an expression reads (refs and ranges), for recalculation. */
export function referencedCells(expr: Expr): { from: CellPosition; to: CellPosition }[] {
  switch (expr.kind) {
    case "ref":
      return [{ from: expr.at, to: expr.at }];
    case "range":
      return [{ from: expr.from, to: expr.to }];
    case "call":
      return expr.args.flatMap(referencedCells);
    case "unary":
      return referencedCells(expr.arg);
    case "binary":
      return [...referencedCells(expr.left), ...referencedCells(expr.right)];
    default:
      return [];
  }
}
