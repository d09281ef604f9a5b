// What a FINANCIAL formula resolves to, as an analyst says it: "2025年3月期 売上高 41.7兆円".

import { FIELD_DICTIONARY } from "../../src/contract/generated/fields";
import type { Lang } from "../i18n/language";
import { englishLabel } from "./metric-labels";
import { ownValue } from "../../src/excel/own-key";

/** The period a FINANCIAL cell reads (functions/financial-period-read.ts financialPeriodRead). */
export interface PeriodRead {
  /** YYYY/MM, the fiscal year's last month (openapi.json FinancialsPeriod.fiscal_year). */
  fiscal_year: string;
  quarter?: string;
  type: string;
}

const QUARTER_JA: Record<string, string> = {
  Q1: "第1四半期",
  Q2: "第2四半期",
  Q3: "第3四半期",
  Q4: "第4四半期",
  H1: "上期",
  full_year: "通期",
};

/**
 * The fiscal year as Japanese filings name it, by its end ("2025年3月期"), or as Japanese
 * companies' English IR does ("FY3/2025"); then the quarter, and LTM's "through".
 * @example periodLabel({ fiscal_year: "2025/03", type: "annual" }, "ja") // "2025年3月期"
 */
export function periodLabel(p: PeriodRead, lang: Lang): string {
  const m = /^(\d{4})\/(\d{2})$/.exec(p.fiscal_year);
  const year = m
    ? lang === "ja"
      ? `${m[1]}年${Number(m[2])}月期`
      : `FY${Number(m[2])}/${m[1]}`
    : p.fiscal_year;
  const quarter = p.quarter && p.quarter !== "full_year" ? p.quarter : undefined;
  const base = quarter
    ? lang === "ja"
      ? `${year} ${ownValue(QUARTER_JA, quarter) ?? quarter}`
      : `${year} ${quarter}`
    : year;
  if (p.type === "LTM") return lang === "ja" ? `直近12か月（${base}まで）` : `LTM to ${base}`;
  return base;
}

function fixed(x: number, lang: Lang): string {
  const abs = Math.abs(x);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return x.toLocaleString(lang === "ja" ? "ja-JP" : "en-US", { maximumFractionDigits: digits });
}

/**
 * An amount in the unit a reader takes in: yen in 兆円/億円/万円 (tn/bn/m in English), per-share
 * yen, percentages (`ratio` is 1.0 = 100%), multiples with 倍 / x.
 * @example readableAmount(41_700_000_000_000, "jpy", "ja") // "41.7兆円"
 */
export function readableAmount(value: number, unit: string | undefined, lang: Lang): string {
  const abs = Math.abs(value);
  const ja = lang === "ja";
  switch (unit) {
    case "jpy":
      if (ja) {
        if (abs >= 1e12) return `${fixed(value / 1e12, lang)}兆円`;
        if (abs >= 1e8) return `${fixed(value / 1e8, lang)}億円`;
        if (abs >= 1e4) return `${fixed(value / 1e4, lang)}万円`;
        return `${fixed(value, lang)}円`;
      }
      return `${value < 0 ? "-" : ""}¥${
        abs >= 1e12
          ? `${fixed(abs / 1e12, lang)}tn`
          : abs >= 1e9
            ? `${fixed(abs / 1e9, lang)}bn`
            : abs >= 1e6
              ? `${fixed(abs / 1e6, lang)}m`
              : fixed(abs, lang)
      }`;
    case "jpy_per_share": {
      // Per-share figures keep their decimals (EPS 143.8): they are compared to the yen price.
      const text = abs.toLocaleString(lang === "ja" ? "ja-JP" : "en-US", {
        maximumFractionDigits: 2,
      });
      return ja ? `${value < 0 ? "-" : ""}${text}円` : `${value < 0 ? "-" : ""}¥${text}`;
    }
    case "ratio":
      return `${fixed(value * 100, lang)}%`;
    case "percent":
      return `${fixed(value, lang)}%`;
    case "times":
      return ja ? `${fixed(value, lang)}倍` : `${fixed(value, lang)}x`;
    case "shares":
      if (ja)
        return abs >= 1e8
          ? `${fixed(value / 1e8, lang)}億株`
          : abs >= 1e4
            ? `${fixed(value / 1e4, lang)}万株`
            : `${fixed(value, lang)}株`;
      return abs >= 1e6 ? `${fixed(value / 1e6, lang)}m shares` : `${fixed(value, lang)} shares`;
    case "people":
      return ja ? `${fixed(value, lang)}人` : `${fixed(value, lang)} people`;
    default:
      return fixed(value, lang);
  }
}

/**
 * "2025年3月期 売上高 41.7兆円" / "FY3/2025 Net sales ¥41.7tn": the period FINANCIAL reads, the item's
 * label in the pane's language and the value in yen (not the cell's unit) made readable.
 */
export function financialResolved(
  period: PeriodRead,
  itemKey: string,
  value: number,
  lang: Lang,
): string {
  const info = FIELD_DICTIONARY.financials.find((f) => f.key === itemKey);
  const label = lang === "ja" ? (info?.label ?? itemKey) : englishLabel(itemKey);
  return `${periodLabel(period, lang)} ${label} ${readableAmount(value, info?.unit, lang)}`;
}
