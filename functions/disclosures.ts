// DISCLOSURES: a security's disclosure list (GET /securities/{code}/disclosures), newest first.

import type { SecurityDisclosure, SecurityDisclosuresResponse } from "../src/contract";
import {
  ArgumentError,
  headersArg,
  optionalDate,
  optionalInteger,
  optionalText,
} from "../src/excel/args";
import { jstIsoDate } from "../src/excel/dates";
import { dateCell, type Cell } from "../src/excel/values";
import { dateColumn, dateTimeColumn, noResults, plainColumn, table, titleRow } from "./common";
import { companyRefArg, securityCodeOf } from "./company-arg";
import { inOrder, orderArg } from "../src/excel/order";
import { futureDate } from "./excel-errors";
import { run, type InvocationLike } from "./run";

/**
 * openapi.json listSecurityDisclosures: limit 1..100 per page; DISCLOSURES pages through for up to
 * this many rows.
 */
const MAX_ROWS = 1000;
const PAGE_MAX = 100;

/**
 * DISCLOSURES: disclosed_at (JST date-time), filing_date, source, document_type, title, doc_id,
 * source_url, pdf_url. Timely-system items appear 24 hours after disclosure (openapi.json
 * listSecurityDisclosures).
 */
export function disclosures(
  securityCode: unknown,
  from: unknown,
  to: unknown,
  documentType: unknown,
  limit: unknown,
  headers: unknown,
  invocation?: InvocationLike,
  order?: unknown,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const start = optionalDate(from, "from");
    const end = optionalDate(to, "to");
    // A range starting after today holds no disclosure yet: say so rather than answer nothing.
    const today = ctx.client.today();
    if (start !== undefined && start > today) throw futureDate(start, today);
    if (start !== undefined && end !== undefined && start > end) {
      throw new ArgumentError(
        "from",
        { en: `a date on or before to (${end})`, ja: `to（${end}）以前の日付` },
        start,
      );
    }
    const type = optionalText(documentType, "document_type", 100);
    const count = optionalInteger(limit, "limit", { min: 1, max: MAX_ROWS }) ?? 50;
    const mode = headersArg(headers);
    const direction = orderArg(order);
    const code = await securityCodeOf(ctx, ref);
    const query = {
      code,
      ...(start !== undefined ? { from: start } : {}),
      ...(end !== undefined ? { to: end } : {}),
      ...(type !== undefined ? { document_type: type } : {}),
      limit: Math.min(count, PAGE_MAX),
    };
    const rows: SecurityDisclosure[] = [];
    let first: SecurityDisclosuresResponse | undefined;
    for await (const page of ctx.client.paginate("listSecurityDisclosures", query, {
      ...ctx.options,
      maxPages: Math.ceil(count / PAGE_MAX),
    })) {
      first ??= page;
      rows.push(...page.disclosures);
      if (rows.length >= count) break;
    }
    if (first === undefined || rows.length === 0) throw noResults();
    const columns = [
      dateTimeColumn("disclosed_at", ctx),
      dateColumn("filing_date", ctx),
      ...["source", "document_type", "title", "doc_id", "source_url", "pdf_url"].map((k) =>
        plainColumn(k),
      ),
    ];
    const title = titleRow(
      ctx,
      first,
      code,
      "disclosures",
      dateCell(end ?? jstIsoDate(), ctx.host),
      first.attribution,
    );
    return table(
      ctx,
      columns,
      // The latest `count` disclosures, then put in the order asked.
      inOrder(
        rows.slice(0, count),
        (r) => r.disclosed_at ?? r.filing_date ?? "",
        direction,
      ) as unknown as Record<string, unknown>[],
      mode,
      title,
    );
  });
}
