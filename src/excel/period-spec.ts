// Which period a period argument names, once parsed (FINANCIAL's fiscal_period and every argument that names a period).

/** Which period the user asked for. */
export type FiscalPeriodSpec =
  /** 0 latest, -1 the one before, ... along the list the period type walks. */
  | { kind: "relative"; offset: number }
  /** "YYYY/MM": the period ending that month (2024/03, 202403, 2024年3月期). */
  | { kind: "month"; month: string }
  /** The fiscal year ending in that calendar year (2024, FY2024). */
  | { kind: "year"; year: number }
  /** 年度: the fiscal year starting in that calendar year (2024年度, 令和6年度). */
  | { kind: "startYear"; year: number }
  /**
   * A date: the latest period ended on or before `iso` (a period ends on its month's last day, so
   * `month` is the last month surely ended by then). A date after today is refused.
   */
  | { kind: "onOrBefore"; month: string; iso: string };
