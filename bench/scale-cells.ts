// The Model N workloads' cells: companies × 60 items × 10 fiscal years of FINANCIAL in mixed kinds.

import * as TYPED from "../functions/index";

/** The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions). */
const { FINANCIAL, PRICES, VALUATION } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;
/** The functions the Model's cells call. */
type FunctionName = "FINANCIAL" | "PRICES" | "VALUATION";
const CALLED: Record<FunctionName, (...args: unknown[]) => unknown> = {
  FINANCIAL,
  PRICES,
  VALUATION,
};
import { FINANCIAL_ITEMS } from "../functions/financial-cell";
import { ltmKind } from "../src/excel/ltm-kind";
import { MODEL_ITEMS, PRICE_FIELDS, VALUATION_FIELDS } from "./workloads";
import type { AliasedCompany } from "./company-aliases";
import type { Facts } from "./probe";

/** 60 statement items: the 30 of the old Model, then the next keys of the field dictionary. */
const SCALE_ITEMS: readonly string[] = [
  ...MODEL_ITEMS,
  ...FINANCIAL_ITEMS.filter((k) => !(MODEL_ITEMS as readonly string[]).includes(k)),
].slice(0, 60);
const SCALE_YEARS = 10;

/** What a cell asks, for the per-cell baselines (bench/naive-client.ts). */
export type CellSpec =
  | { kind: "annual" | "quarterly" | "ltm" | "units"; code: string; item: string; back: number }
  | { kind: "fixed"; code: string; item: string; back: number }
  | { kind: "valuation"; code: string }
  | { kind: "prices"; code: string; from: string; to: string };

/** The cells' shared inputs: companies (with the code as typed), price dates. */
interface Sheet {
  companies: readonly ScaleCompany[];
  /** Each company's code as a cell holds it: a number where Excel would hold one (7203). */
  typed: readonly (string | number)[];
  pricesFrom: string;
  pricesTo: string;
  /** PRICES cells ask "up to latest" (no `to`): the sandbox's today is then the end. */
  livePrices: boolean;
}

const VALUATION_CELL = -1;
const PRICES_CELL = -2;

/**
 * One cell: what it calls, and where it sits (the address Excel passes with @requiresAddress).
 * Compact on purpose (indexes into shared tables, the address text, nothing else): Excel keeps a
 * workbook's formulas outside the add-in's heap, so the bench's 301,000 cells must not weigh on
 * the heap it measures (closures, specs and invocation objects per cell were ~360 bytes each, a
 * third of Model 500's starting heap, which V8 multiplies when it sets its next collection). A
 * new invocation object per call, as Excel passes one per call.
 */
export class ScaleCell {
  constructor(
    private readonly sheet: Sheet,
    private readonly companyIndex: number,
    /** Into SCALE_ITEMS, or VALUATION_CELL / PRICES_CELL. */
    private readonly itemIndex: number,
    private readonly back: number,
    readonly address: string,
  ) {
    this.form = (companyIndex + itemIndex + back) % 6;
  }

  private get company(): ScaleCompany {
    return this.sheet.companies[this.companyIndex] as ScaleCompany;
  }

  /** Which FINANCIAL form the cell uses (kinds rotate with company, item and year). */
  private readonly form: number;

  /**
   * What the function returned: a value (a warm single-value cell) or a promise of one. Per call
   * the bench makes what Excel's runtime hands the function and nothing of its own: a new
   * arguments array with a new invocation object pushed last
   * (custom-functions-runtime.js `_batchInvocationEntries`:
   * `message.parameterValues.push(invocationContext)`, the same array passed to `call.apply`, not
   * a spread copy), the function found by its name (`_getFunction(message.functionName)`).
   */
  call(): unknown {
    const inv = { address: this.address } as unknown as CustomFunctions.CancelableInvocation;
    const args = this.args();
    args.push(inv);
    return CALLED[this.name].apply(undefined, args);
  }

  /** The custom function the cell calls. */
  get name(): FunctionName {
    if (this.itemIndex === VALUATION_CELL) return "VALUATION";
    return this.itemIndex === PRICES_CELL ? "PRICES" : "FINANCIAL";
  }

  /**
   * The custom function and its arguments as Excel passes them (the invocation object aside): the
   * bench calls them here, and in Chromium through the bundle's own registrations (bench/browser-run.ts).
   */
  formula(): [FunctionName, unknown[]] {
    return [this.name, this.args()];
  }

  /** The function's arguments as Excel passes them, a new array each call (the invocation aside). */
  private args(): unknown[] {
    const { code, latestYear } = this.company;
    if (this.itemIndex === VALUATION_CELL)
      // company, fields, years, headers, order, as_of (functions/index.ts VALUATION).
      return [code, [VALUATION_FIELDS], null, null, null, null];
    if (this.itemIndex === PRICES_CELL)
      return [
        code,
        this.sheet.pricesFrom,
        this.sheet.livePrices ? null : this.sheet.pricesTo,
        [PRICE_FIELDS],
        null,
        null,
      ];
    const item = SCALE_ITEMS[this.itemIndex] as string;
    // 0, not -0, for the latest year: Excel passes a typed 0 (and -0 is a heap number per call).
    const offset = this.back === 0 ? 0 : -this.back;
    const year = latestYear - this.back;
    switch (this.form) {
      case 0:
      case 1:
        return [this.sheet.typed[this.companyIndex], item, offset, null, null, null];
      case 2:
        return [code, item, offset, "quarterly", "Q2", null];
      case 3:
        return ltmKind(item) !== undefined
          ? [code, item, offset, "LTM", null, null]
          : [code, item, offset, "annual", null, "million_jpy"];
      case 4:
        return [code, item, year, null, null, null];
      default:
        return [code, item, offset, null, null, "億円"];
    }
  }

  /**
   * What the cell asks, for the per-cell baselines (bench/naive-client.ts). A live PRICES cell's
   * `to` is the sandbox's latest day (`pricesTo`): the same rows as "up to latest".
   */
  get spec(): CellSpec {
    const code = this.company.code;
    if (this.itemIndex === VALUATION_CELL) return { kind: "valuation", code };
    if (this.itemIndex === PRICES_CELL)
      return { kind: "prices", code, from: this.sheet.pricesFrom, to: this.sheet.pricesTo };
    const item = SCALE_ITEMS[this.itemIndex] as string;
    const back = this.back;
    switch (this.form) {
      case 0:
      case 1:
        return { kind: "annual", code, item, back };
      case 2:
        return { kind: "quarterly", code, item, back };
      case 3:
        return ltmKind(item) !== undefined
          ? { kind: "ltm", code, item, back }
          : { kind: "units", code, item, back };
      case 4:
        return { kind: "fixed", code, item, back };
      default:
        return { kind: "units", code, item, back };
    }
  }

  /** Set for plain annual cells in yen: the oracle checks them against the dataset. */
  get check(): { base: string; item: string; back: number } | undefined {
    if (this.itemIndex < 0 || this.form > 1) return undefined;
    return {
      base: this.company.base,
      item: SCALE_ITEMS[this.itemIndex] as string,
      back: this.back,
    };
  }
}

/** The Model's companies from the aliased ones, each with its dataset company's latest annual fiscal year (2025 when it has none). */
export function scaleCompaniesOf(
  facts: Pick<Facts, "annual">,
  companies: readonly AliasedCompany[],
): ScaleCompany[] {
  return companies.map((c) => {
    const periods = facts.annual.get(c.base) ?? [];
    const last = periods[periods.length - 1] as { fiscal_year?: unknown } | undefined;
    return {
      code: c.code,
      base: c.base,
      latestYear: Number(String(last?.fiscal_year ?? "2025").slice(0, 4)),
    };
  });
}

export interface ScaleCompany {
  /** The code the workbook uses (an alias beyond the dataset's 50 companies, see company-aliases.ts). */
  code: string;
  /** The dataset company answering for it. */
  base: string;
  /** Latest fiscal year of its annual periods (for fixed-year cells). */
  latestYear: number;
}

function column(n: number): string {
  let s = "";
  let x = n + 1;
  while (x > 0) {
    const r = (x - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    x = Math.floor((x - 1) / 26);
  }
  return s;
}

/**
 * The cells of Model N, in a comparables-sheet order (item-major, company-minor: neighbouring cells
 * belong to different companies, the hardest order for a memory LRU). Kinds rotate with the cell:
 * annual relative (0, -1..), quarterly Q2, LTM (items that have one), a fixed fiscal year, and
 * annual in 百万円 / 億円 with the code given as text; addresses spread over five sheets. With
 * `livePrices`, the PRICES spills ask "up to latest" (no `to`, as an analyst's sheet does), so a
 * morning after a close asks them again; `pricesTo` is then the latest day the sandbox has.
 */
export function scaleCells(
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  pricesTo: string,
  livePrices = false,
): ScaleCell[] {
  const typed = companies.map((c) => (/^\d{4}$/.test(c.code) ? Number(c.code) : c.code));
  const sheet: Sheet = { companies, typed, pricesFrom, pricesTo, livePrices };
  const cells: ScaleCell[] = [];
  SCALE_ITEMS.forEach((_item, ii) => {
    for (let back = 0; back < SCALE_YEARS; back += 1) {
      companies.forEach((_company, ci) => {
        const address = `'Sheet ${(ci % 5) + 1}'!${column(back + 2 + (ii % 3) * 12)}${ci * 64 + ii + 2}`;
        cells.push(new ScaleCell(sheet, ci, ii, back, address));
      });
    }
  });
  companies.forEach((_company, ci) => {
    const address = `'Prices'!A${ci * 1300 + 1}`;
    cells.push(new ScaleCell(sheet, ci, VALUATION_CELL, 0, address));
    cells.push(new ScaleCell(sheet, ci, PRICES_CELL, 0, address));
  });
  return cells;
}

/** The company a bench cell belongs to, from its address (scaleCells: rows per company). */
export function companyOf(address: string): { company: number; sheet: string } {
  const bang = address.lastIndexOf("!");
  const sheet = address.slice(0, bang).replace(/^'|'$/g, "");
  const row = Number(/\d+$/.exec(address)?.[0] ?? "0");
  return sheet === "Prices"
    ? { company: Math.floor((row - 1) / 1300), sheet }
    : { company: Math.floor((row - 2) / 64), sheet };
}

/** How a recalculation went: values, errors (with samples), wrong values and timings. */
export interface ScaleOutcome {
  cells: number;
  values: number;
  errors: number;
  errorSamples: string[];
  wrong: number;
}

/**
 * One recalculation, modelled as Excel handing the shared runtime its invocations in batches
 * (messages; the real batch size is not documented) rather than as one synchronous call: cells
 * are started `batch` at a time, one batch per macrotask, and each result taken when it settles
 * (one handler per call, as Excel's runtime posts each result back); it ends when the last has.
 * A count, not Promise.all over an array of every cell's promise: that bookkeeping is the
 * bench's, and was charged to the add-in's CPU and garbage per cell.
 */
export async function recalculateScale(
  cells: readonly ScaleCell[],
  isError: (value: unknown) => string | undefined,
  oracle: ((base: string, item: string, back: number, value: unknown) => boolean) | undefined,
  batch = 1_000,
): Promise<ScaleOutcome> {
  const outcome: ScaleOutcome = {
    cells: cells.length,
    values: 0,
    errors: 0,
    errorSamples: [],
    wrong: 0,
  };
  const settle = (cell: ScaleCell, value: unknown): void => {
    const message = isError(value);
    if (message !== undefined) {
      outcome.errors += 1;
      if (outcome.errorSamples.length < 3 && !outcome.errorSamples.includes(message))
        outcome.errorSamples.push(message);
      return;
    }
    outcome.values += 1;
    if (oracle !== undefined && cell.check !== undefined) {
      const { base, item, back } = cell.check;
      if (!oracle(base, item, back, value)) outcome.wrong += 1;
    }
  };
  await handCells(cells, settle, (cell, error) => settle(cell, { thrown: describe(error) }), batch);
  return outcome;
}

/**
 * Hands `cells` to the runtime `batch` per macrotask and takes each result as it settles: `settle`
 * with a value, `reject` with what a call threw or its promise rejected with; `handed` once the
 * last cell has been called. Resolves when the last has settled (recalculateScale above,
 * bench/realclock-run.ts).
 */
export async function handCells(
  cells: readonly ScaleCell[],
  settle: (cell: ScaleCell, value: unknown) => void,
  reject: (cell: ScaleCell, error: unknown) => void,
  batch = 1_000,
  handed?: () => void,
): Promise<void> {
  let unsettled = cells.length;
  let allSettled: () => void = () => undefined;
  const last = new Promise<void>((resolve) => (allSettled = resolve));
  const taken = (): void => {
    unsettled -= 1;
    if (unsettled === 0) allSettled();
  };
  if (unsettled === 0) allSettled();
  for (let start = 0; start < cells.length; start += batch) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = Math.min(cells.length, start + batch);
    for (let i = start; i < end; i += 1) {
      const cell = cells[i] as ScaleCell;
      let result: unknown;
      try {
        result = cell.call();
      } catch (error) {
        result = Promise.reject(error);
      }
      // As Excel's runtime does (custom-functions-runtime.js _invokeFunctionAndSetResult): a
      // result that is not a thenable is set at once; a thenable's (a promise, or a cell waiting
      // for another cell's fetch: functions/cells/waiting-cell.ts), when it settles.
      if (!isThenable(result)) {
        settle(cell, result);
        taken();
        continue;
      }
      result.then(
        (value) => {
          settle(cell, value);
          taken();
        },
        (error: unknown) => {
          reject(cell, error);
          taken();
        },
      );
    }
  }
  // Every cell has been called (the runtime has them all); their results may still be pending.
  handed?.();
  await last;
}

/** What the runtime takes for a result to come: an object whose `then` is a function. */
function isThenable(
  result: unknown,
): result is { then(onValue: (value: unknown) => void, onError: (error: unknown) => void): unknown } {
  return (
    typeof result === "object" &&
    result !== null &&
    typeof (result as { then?: unknown }).then === "function"
  );
}

function describe(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code === "string" && typeof message === "string") return `${code} ${message}`;
    if (typeof message === "string") return message;
  }
  return String(error);
}
