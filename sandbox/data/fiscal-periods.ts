// Fiscal periods and their quarters for a company, including a fiscal-year change and the running year.
import { addDays, addMonths, fiscalLabel, monthEnd } from "./calendar";
import type { CompanySpec } from "./companies";
import { SANDBOX_DEFAULT_NOW } from "./model";

/** Results are published (timely disclosure) about 45 days after a period ends. */
export const PUBLICATION_LAG_DAYS = 45;
export const DATA_DATE = SANDBOX_DEFAULT_NOW.slice(0, 10);

export interface QuarterDef {
  year: number;
  month: number;
  end: string;
}

export interface PeriodDef {
  year: number;
  month: number;
  label: string;
  end: string;
  /** Quarters in the period: 4, or fewer for a transitional period. */
  quarterCount: number;
  transitional: boolean;
  /** Index of the period's first quarter in the company's quarter list. */
  firstQuarter: number;
  /** Quarters published so far (all of them unless this is the running year). */
  publishedQuarters: number;
  /** true when the full fiscal year has been published. */
  complete: boolean;
}

function isPublished(end: string): boolean {
  return addDays(end, PUBLICATION_LAG_DAYS) <= DATA_DATE;
}

/** All fiscal periods (oldest first) and the quarter grid under them. */
export function fiscalPeriods(spec: CompanySpec): { periods: PeriodDef[]; quarters: QuarterDef[] } {
  const periods: PeriodDef[] = [];
  const quarters: QuarterDef[] = [];
  let year = spec.firstFiscalYear;
  let month = spec.fyMonth;
  let quarterCount = 4;
  for (;;) {
    const end = monthEnd(year, month);
    const firstQuarter = quarters.length;
    let published = 0;
    for (let q = quarterCount - 1; q >= 0; q -= 1) {
      const [qy, qm] = addMonths(year, month, -3 * q);
      const qEnd = monthEnd(qy, qm);
      if (!isPublished(qEnd)) break;
      quarters.push({ year: qy, month: qm, end: qEnd });
      published += 1;
    }
    if (published === 0) break;
    periods.push({
      year,
      month,
      label: fiscalLabel(year, month),
      end,
      quarterCount,
      transitional: quarterCount < 4,
      firstQuarter,
      publishedQuarters: published,
      complete: published === quarterCount,
    });
    if (published < quarterCount) break;
    const change = spec.fyChange;
    if (change && year === change.lastOldYear && month === spec.fyMonth) {
      const gap = (change.newMonth - month + 12) % 12 || 12;
      [year, month] = addMonths(year, month, gap);
      quarterCount = gap / 3;
    } else {
      [year, month] = addMonths(year, month, 12);
      quarterCount = 4;
    }
  }
  return { periods, quarters };
}
