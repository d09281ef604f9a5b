// OFFICERS: a security's officers (GET /securities/{code}/officers): current, nominees, then retired.

import { headersArg } from "../src/excel/args";
import type { Cell } from "../src/excel/values";
import { dateColumn, noResults, plainColumn, table, titleRowToday } from "./common";
import { companyRefArg, securityCodeOf } from "./company-arg";
import { run, type InvocationLike } from "./run";

/**
 * OFFICERS: person_id, name, role, position, is_outside, is_current, is_next_term_nominee,
 * first_valid_from, last_valid_to, tenure_years (openapi.json SecurityOfficer). person_id feeds
 * PERSON and friends.
 */
export function officers(
  securityCode: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): Promise<Cell[][]> {
  return run(invocation, async (ctx) => {
    const ref = companyRefArg(securityCode);
    const mode = headersArg(headers);
    const code = await securityCodeOf(ctx, ref);
    const body = await ctx.client.officers({ code }, ctx.options);
    if (body.officers.length === 0) throw noResults();
    const columns = [
      ...[
        "person_id",
        "name",
        "role",
        "position",
        "is_outside",
        "is_current",
        "is_next_term_nominee",
      ].map((k) => plainColumn(k)),
      dateColumn("first_valid_from", ctx),
      dateColumn("last_valid_to", ctx),
      plainColumn("tenure_years"),
    ];
    const title = titleRowToday(ctx, body, code, "officers");
    return table(ctx, columns, body.officers as unknown as Record<string, unknown>[], mode, title);
  });
}
