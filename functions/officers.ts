// OFFICERS: a security's officers (GET /securities/{code}/officers): current, nominees, then retired.

import type { ParamsOf, ResponseOf } from "../src/client";
import { headersArg, type HeaderMode } from "../src/excel/args";
import type { CompanyRef } from "../src/excel/company-ref";
import { dateColumn, noResults, plainColumn, table, titleRowToday } from "./common";
import { companyRefArg } from "./company-arg";
import type { InvocationLike } from "./run";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import { answersOf } from "./cells/answers";
import { LACKING } from "./cells/rounds";
import { bySecurityCode } from "./cells/subjects";

/** OFFICERS' arguments read. */
interface OfficersArgs {
  ref: CompanyRef;
  mode: HeaderMode;
}

function officersQuery(code: string): ParamsOf<"getOfficers"> {
  return internedQuery(`getOfficers|${code}`, () => ({ code }));
}

/**
 * OFFICERS: person_id, name, role, position, is_outside, is_current, is_next_term_nominee,
 * first_valid_from, last_valid_to, tenure_years (openapi.json SecurityOfficer). person_id feeds
 * PERSON and friends.
 */
const officersTable = defineTable<
  OfficersArgs,
  string,
  ParamsOf<"getOfficers">,
  ResponseOf<"getOfficers">
>({
  parse: ([company, headers]) => ({ ref: companyRefArg(company), mode: headersArg(headers) }),
  needs: {
    ...bySecurityCode<OfficersArgs>(),
    first: (_args, code) => [officersQuery(code)],
    ...answersOf("getOfficers"),
  },
  compute(args, code, answers, shaping) {
    const body = answers.read(officersQuery(code));
    if (body === undefined) return LACKING;
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
      dateColumn("first_valid_from", shaping),
      dateColumn("last_valid_to", shaping),
      plainColumn("tenure_years"),
    ];
    const title = titleRowToday(shaping, body, code, "officers");
    const rows = body.officers as unknown as Record<string, unknown>[];
    return table(shaping, columns, rows, args.mode, title);
  },
});

export function officers(
  securityCode: unknown,
  headers: unknown,
  invocation?: InvocationLike,
): TableResult {
  return officersTable(invocation, [securityCode, headers]);
}
