// SECURITIES: listed securities ascending by code (GET /securities), pages followed up to `limit`.

import type { SecuritiesResponse, SecurityListItem } from "../src/contract";
import { headersArg, optionalChoice, optionalInteger, optionalText } from "../src/excel/args";
import { TSE33_INDUSTRIES } from "../src/contract/tse-industries";
import { fieldKey } from "../src/excel/field-names";
import type { Column } from "../src/excel/shape";
import type { Cell } from "../src/excel/values";
import { noResults, plainColumn, table, titleRowToday } from "./common";
import { run, type InvocationLike } from "./run";

/**
 * openapi.json listSecurities: limit 1..500 per page; SECURITIES pages through for up to this many
 * rows.
 */
const MAX_ROWS = 5000;
const PAGE_MAX = 500;

/**
 * openapi.json listSecurities: `industry` is an exact TSE 33-industry name, so any other text can
 * only match nothing: refused before sending (as SCREEN's are, src/client/validate.ts), naming the
 * nearest official name. Full-width/half-width forms and the English names map to the official
 * spelling.
 */
function industryArg(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const candidates = TSE33_INDUSTRIES.map((i) => ({ key: i.ja, label: i.en }));
  return fieldKey(text, candidates, "industry", {
    en: "a TSE 33 industry name, e.g. 電気機器, 輸送用機器, 銀行業",
    ja: "東証33業種名（電気機器、輸送用機器、銀行業 など）",
  });
}

/** SECURITIES: security_code, name, market, industry. */
export function securities(
  q: unknown,
  market: unknown,
  industry: unknown,
  limit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const text = optionalText(q, "q", 100);
    const m = optionalChoice(market, "market", ["Prime", "Standard", "Growth"] as const, {
      プライム: "Prime",
      スタンダード: "Standard",
      グロース: "Growth",
    });
    const ind = industryArg(optionalText(industry, "industry", 120));
    const count = optionalInteger(limit, "limit", { min: 1, max: MAX_ROWS }) ?? 100;
    const mode = headersArg(headers);
    const query = {
      ...(text !== undefined ? { q: text } : {}),
      ...(m !== undefined ? { market: m } : {}),
      ...(ind !== undefined ? { industry: ind } : {}),
      limit: Math.min(count, PAGE_MAX),
    };
    const rows: SecurityListItem[] = [];
    let first: SecuritiesResponse | undefined;
    for await (const page of ctx.client.paginate("listSecurities", query, {
      ...ctx.options,
      maxPages: Math.ceil(count / PAGE_MAX),
    })) {
      first ??= page;
      rows.push(...page.securities);
      if (rows.length >= count) break;
    }
    if (first === undefined || rows.length === 0) throw noResults();
    const columns = ["code", "name", "market", "industry"].map(
      (k) => plainColumn(k) as Column<SecurityListItem>,
    );
    const title = titleRowToday(ctx, first, text ?? m ?? ind ?? "*", "securities");
    return table(ctx, columns, rows.slice(0, count), mode, title);
  });
}
