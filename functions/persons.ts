// PERSON, APPOINTMENTS and COMPENSATION over GET /persons/{id} and its sub-resources.

import type { ParamsOf, ResponseOf } from "../src/client";
import { headersArg, personIdArg, type HeaderMode } from "../src/excel/args";
import {
  dateColumn,
  noResults,
  plainColumn,
  table,
  titleRowToday,
  unitColumn,
  type Shaping,
} from "./common";
import type { Column, TitleRow } from "../src/excel/shape";
import type { InvocationLike } from "./run";
import { defineTable, type TableResult } from "./cells/define-table";
import { internedQuery } from "./cells/interned-args";
import { answersOf } from "./cells/answers";
import { LACKING } from "./cells/rounds";

type Row = Record<string, unknown>;

/** What a person's table shows: its columns, rows and title row. */
interface PersonTable {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  title: TitleRow;
}

/** A person function's arguments read. */
interface PersonArgs {
  id: string;
  mode: HeaderMode;
}

/** The person operations, each answering one person id. */
type PersonOperation = "getPerson" | "getPersonAppointments" | "getPersonCompensationHistory";

/**
 * A person function (person_id, headers) on defineTable: the id is the subject (no look-up), its
 * one answer read from memory or fetched, then its table.
 */
function personTable<O extends PersonOperation>(
  operationId: O,
  build: (shaping: Shaping, body: ResponseOf<O>, id: string) => PersonTable,
): (personId: unknown, headers: unknown, invocation?: InvocationLike) => TableResult {
  const query = (id: string): ParamsOf<O> =>
    internedQuery(`${operationId}|${id}`, () => ({ id }) as unknown as ParamsOf<O>);
  const defined = defineTable<PersonArgs, string, ParamsOf<O>, ResponseOf<O>>({
    parse: ([personId, headers]) => ({ id: personIdArg(personId), mode: headersArg(headers) }),
    needs: {
      subjectAtHand: (args) => args.id,
      subject: (_ctx, args) => args.id,
      first: (_args, id) => [query(id)],
      ...answersOf(operationId),
    },
    compute(args, id, answers, shaping) {
      const body = answers.read(query(id));
      if (body === undefined) return LACKING;
      const { columns, rows, title } = build(shaping, body, id);
      return table(shaping, columns, rows, args.mode, title);
    },
  });
  return (personId, headers, invocation) => defined(invocation, [personId, headers]);
}

/**
 * PERSON: one row per current appointment (person_id, name, birth_date, security_code,
 * security_name, role, position, is_outside, first_valid_from, tenure_years); a person with none
 * still gets one row with name and birth date (openapi.json getPerson).
 */
export const person = personTable("getPerson", (ctx, body, id) => {
  const base = { person_id: body.person_id, name: body.name, birth_date: body.birth_date };
  const rows: Record<string, unknown>[] =
    body.current_appointments.length === 0
      ? [base]
      : body.current_appointments.map((a) => ({ ...base, ...a }));
  const columns = [
    plainColumn("person_id"),
    plainColumn("name"),
    dateColumn("birth_date", ctx),
    ...["security_code", "security_name", "role", "position", "is_outside"].map((k) =>
      plainColumn(k),
    ),
    dateColumn("first_valid_from", ctx),
    plainColumn("tenure_years"),
  ];
  return { columns, rows, title: titleRowToday(ctx, body, id, "person") };
});

/** APPOINTMENTS: current first, then by tenure (openapi.json getPersonAppointments). */
export const appointments = personTable("getPersonAppointments", (ctx, body, id) => {
  if (body.appointments.length === 0) throw noResults();
  const columns = [
    ...[
      "security_code",
      "security_name",
      "latest_role",
      "latest_position",
      "is_outside",
      "is_current",
    ].map((k) => plainColumn(k)),
    dateColumn("first_valid_from", ctx),
    dateColumn("last_valid_to", ctx),
    plainColumn("tenure_years"),
  ];
  const rows = body.appointments as unknown as Row[];
  return { columns, rows, title: titleRowToday(ctx, body, id, `appointments ${body.name}`) };
});

const COMP = ["total_comp", "fixed_comp", "performance_comp", "stock_comp"];

/**
 * COMPENSATION: one row per company and fiscal period end, amounts in yen (openapi.json
 * PersonCompensationResponse).
 */
export const compensation = personTable("getPersonCompensationHistory", (ctx, body, id) => {
  const rows = body.companies.flatMap((c) =>
    c.history.map((h) => ({
      security_code: c.security_code,
      company_name: c.company_name,
      ...h,
    })),
  );
  if (rows.length === 0) throw noResults();
  const columns = [
    plainColumn("security_code"),
    plainColumn("company_name"),
    dateColumn("fiscal_period_end", ctx),
    ...COMP.map((k) => unitColumn(k, "jpy", ctx)),
  ];
  const title = titleRowToday(ctx, body, id, `compensation ${body.name}`);
  return { columns, rows: rows as unknown as Row[], title };
});
