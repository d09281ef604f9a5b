// The Model N workloads' cells: companies × 60 items × 10 fiscal years of FINANCIAL in mixed kinds.

import * as TYPED from "../functions/index";

/** The wrappers as Excel calls them: any value for any argument (custom-enum types are suggestions). */
const { FINANCIAL, PRICES, VALUATION } = TYPED as unknown as Record<
  keyof typeof TYPED,
  (...args: unknown[]) => Promise<unknown>
>;
import { FINANCIAL_ITEMS } from "../functions/financials";
import { ltmKind } from "../src/excel/financial-period";
import { MODEL_ITEMS, PRICE_FIELDS, VALUATION_FIELDS } from "./workloads";

/** 60 statement items: the 30 of the old Model, then the next keys of the field dictionary. */
export const SCALE_ITEMS: readonly string[] = [
  ...MODEL_ITEMS,
  ...FINANCIAL_ITEMS.filter((k) => !(MODEL_ITEMS as readonly string[]).includes(k)),
].slice(0, 60);
export const SCALE_YEARS = 10;

/** What a cell asks, for the per-cell baselines (bench/naive-client.ts). */
export type CellSpec =
  | { kind: "annual" | "quarterly" | "ltm" | "units"; code: string; item: string; back: number }
  | { kind: "fixed"; code: string; item: string; back: number }
  | { kind: "valuation"; code: string }
  | { kind: "prices"; code: string; from: string; to: string };

/** One cell: what it calls, and where it sits (the address Excel passes with @requiresAddress). */
export interface ScaleCell {
  call: () => Promise<unknown>;
  spec: CellSpec;
  /** Set for plain annual cells in yen: the oracle checks them against the dataset. */
  check?: { base: string; item: string; back: number };
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

function invocation(address: string): CustomFunctions.CancelableInvocation {
  return { address } as unknown as CustomFunctions.CancelableInvocation;
}

/**
 * The cells of Model N, in a comparables-sheet order (item-major, company-minor: neighbouring cells
 * belong to different companies, the hardest order for a memory LRU). Kinds rotate with the cell:
 * annual relative (0, -1..), quarterly Q2, LTM (items that have one), a fixed fiscal year, and
 * annual in 百万円 / 億円 with the code given as text; addresses spread over five sheets.
 */
export function scaleCells(
  companies: readonly ScaleCompany[],
  pricesFrom: string,
  pricesTo: string,
): ScaleCell[] {
  const cells: ScaleCell[] = [];
  SCALE_ITEMS.forEach((item, ii) => {
    const ltm = ltmKind(item) !== undefined;
    for (let back = 0; back < SCALE_YEARS; back += 1) {
      companies.forEach((company, ci) => {
        const address = `'Sheet ${(ci % 5) + 1}'!${column(back + 2 + (ii % 3) * 12)}${ci * 64 + ii + 2}`;
        const inv = invocation(address);
        const kind = (ci + ii + back) % 6;
        const code = company.code;
        // As a number where Excel would hold one (a typed 7203), else as text.
        const typed: string | number = /^\d{4}$/.test(code) ? Number(code) : code;
        switch (kind) {
          case 0:
          case 1:
            cells.push({
              call: () => FINANCIAL(typed, item, -back, null, null, null, inv),
              check: { base: company.base, item, back },
              spec: { kind: "annual", code, item, back },
            });
            break;
          case 2:
            cells.push({
              call: () => FINANCIAL(code, item, -back, "quarterly", "Q2", null, inv),
              spec: { kind: "quarterly", code, item, back },
            });
            break;
          case 3:
            cells.push(
              ltm
                ? {
                    call: () => FINANCIAL(code, item, -back, "LTM", null, null, inv),
                    spec: { kind: "ltm", code, item, back },
                  }
                : {
                    call: () => FINANCIAL(code, item, -back, "annual", null, "million_jpy", inv),
                    spec: { kind: "units", code, item, back },
                  },
            );
            break;
          case 4:
            cells.push({
              call: () => FINANCIAL(code, item, company.latestYear - back, null, null, null, inv),
              spec: { kind: "fixed", code, item, back },
            });
            break;
          default:
            cells.push({
              call: () => FINANCIAL(code, item, -back, null, null, "億円", inv),
              spec: { kind: "units", code, item, back },
            });
        }
      });
    }
  });
  companies.forEach((company, ci) => {
    const inv = invocation(`'Prices'!A${ci * 1300 + 1}`);
    cells.push({
      call: () => VALUATION(company.code, [VALUATION_FIELDS], null, null, null, inv),
      spec: { kind: "valuation", code: company.code },
    });
    cells.push({
      call: () => PRICES(company.code, pricesFrom, pricesTo, [PRICE_FIELDS], null, null, inv),
      spec: { kind: "prices", code: company.code, from: pricesFrom, to: pricesTo },
    });
  });
  return cells;
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
 * are started `batch` at a time, one batch per macrotask, then all awaited.
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
  const pending: Promise<void>[] = [];
  for (let start = 0; start < cells.length; start += batch) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = Math.min(cells.length, start + batch);
    for (let i = start; i < end; i += 1) {
      const cell = cells[i] as ScaleCell;
      pending.push(
        cell.call().then(
          (value) => settle(cell, value),
          (error: unknown) => settle(cell, { thrown: describe(error) }),
        ),
      );
    }
  }
  await Promise.all(pending);
  return outcome;
}

function describe(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code === "string" && typeof message === "string") return `${code} ${message}`;
    if (typeof message === "string") return message;
  }
  return String(error);
}
