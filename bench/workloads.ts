// The benchmark's workloads, described once and run against the add-in and the naive baseline alike.

/** 30 statement items a model typically pulls (spec 2.5 keys). */
export const MODEL_ITEMS = [
  "sales",
  "cost_of_sales",
  "gross_profit",
  "sga",
  "operating_profit",
  "ordinary_income",
  "income_before_tax",
  "income_taxes",
  "net_income",
  "comprehensive_income",
  "ebitda",
  "rd_expenses",
  "total_assets",
  "current_assets",
  "noncurrent_assets",
  "current_liabilities",
  "total_liabilities",
  "net_assets",
  "shareholders_equity",
  "retained_earnings",
  "interest_bearing_debt",
  "cash_and_deposits_bs",
  "inventories",
  "operating_cf",
  "investing_cf",
  "financing_cf",
  "fcf",
  "capital_expenditure",
  "depreciation",
  "cash_and_equivalents",
] as const;

/** Fiscal years per item: FINANCIAL's relative periods 0 (latest) .. -9. */
export const MODEL_YEARS = 10;

/** Valuation fields a model's VALUATION spill shows. */
export const VALUATION_FIELDS = [
  "stock_price",
  "market_cap",
  "per",
  "pbr_adjusted",
  "roe",
  "dividend_yield_adjusted",
];

/** Price fields of the PRICES spill. */
export const PRICE_FIELDS = ["close", "volume"];

/** One workbook's worth of cells. */
export interface ModelCells {
  financial: { code: string; item: string; relative: number }[];
  valuation: { code: string }[];
  prices: { code: string; from: string; to: string }[];
}

/**
 * The Model workload: companies × MODEL_ITEMS × MODEL_YEARS FINANCIAL cells, one VALUATION and one
 * five-year PRICES spill per company.
 */
export function modelCells(
  codes: readonly string[],
  pricesFrom: string,
  pricesTo: string,
): ModelCells {
  const financial: ModelCells["financial"] = [];
  for (const code of codes) {
    for (const item of MODEL_ITEMS) {
      for (let back = 0; back < MODEL_YEARS; back += 1)
        financial.push({ code, item, relative: -back });
    }
  }
  return {
    financial,
    valuation: codes.map((code) => ({ code })),
    prices: codes.map((code) => ({ code, from: pricesFrom, to: pricesTo })),
  };
}

/** Number of cells (FINANCIAL cells plus spills) of a model. */
export function cellCount(cells: ModelCells): number {
  return cells.financial.length + cells.valuation.length + cells.prices.length;
}

/** How a side (add-in or naive) evaluates each kind of cell. Each call is one cell. */
export interface CellEvaluator {
  financial(code: string, item: string, relative: number): Promise<unknown>;
  valuation(code: string): Promise<unknown>;
  prices(code: string, from: string, to: string): Promise<unknown>;
}

export interface RecalcOutcome {
  cells: number;
  /** Cells that settled with a value (not an error). */
  values: number;
  /** Cells that settled with an error; the first few messages are kept for the report. */
  errors: number;
  errorSamples: string[];
  /** Cells holding the right number (FINANCIAL only, when an oracle was given). */
  wrong: number;
}

/**
 * One recalculation: every cell started at once, as Excel does, then all awaited.
 * `oracle` checks FINANCIAL values against the dataset so a fast wrong answer is caught.
 */
export async function recalculate(
  cells: ModelCells,
  side: CellEvaluator,
  isError: (value: unknown) => string | undefined,
  oracle?: (code: string, item: string, relative: number, value: unknown) => boolean,
): Promise<RecalcOutcome> {
  const outcome: RecalcOutcome = {
    cells: cellCount(cells),
    values: 0,
    errors: 0,
    errorSamples: [],
    wrong: 0,
  };
  const record = (value: unknown): void => {
    const message = isError(value);
    if (message === undefined) outcome.values += 1;
    else {
      outcome.errors += 1;
      if (outcome.errorSamples.length < 3 && !outcome.errorSamples.includes(message)) {
        outcome.errorSamples.push(message);
      }
    }
  };
  const settle = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      (value) => value,
      (error: unknown) => ({ thrown: describeThrown(error) }),
    );
  const financial = cells.financial.map((cell) =>
    settle(side.financial(cell.code, cell.item, cell.relative)).then((value) => {
      record(value);
      if (
        oracle !== undefined &&
        isError(value) === undefined &&
        !oracle(cell.code, cell.item, cell.relative, value)
      ) {
        outcome.wrong += 1;
      }
    }),
  );
  const valuation = cells.valuation.map((cell) => settle(side.valuation(cell.code)).then(record));
  const prices = cells.prices.map((cell) =>
    settle(side.prices(cell.code, cell.from, cell.to)).then(record),
  );
  await Promise.all([...financial, ...valuation, ...prices]);
  return outcome;
}

/** "#N/A Not found" for a cell error, the message for anything else thrown. */
function describeThrown(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code === "string" && typeof message === "string") return `${code} ${message}`;
    if (typeof message === "string") return message;
  }
  return String(error);
}
