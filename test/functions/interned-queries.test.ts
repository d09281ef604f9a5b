// Arguments and queries are interned in one module (functions/cells/interned-args.ts): a table's
// /financials ask and a FINANCIAL cell's query are one object, and no other module keeps a memo.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { financialsAsk, financialsQuery, internedQuery } from "../../functions/cells/interned-args";
import { widestAsk } from "../../functions/cells/financials-asks";
import { optionalPeriodArg, type PeriodArg } from "../../src/excel/fiscal-year-arg";

const ROOT = join(__dirname, "..", "..");

/** The TypeScript files of a folder, recursively, relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

describe("one interning of arguments and queries", () => {
  test("FINANCIALS' ask sends the very query a FINANCIAL cell of the company asks", () => {
    const who = Object.freeze({ security_code: "7203" });
    const ask = financialsAsk(who, "quarterly", undefined);
    expect(ask.params).toBe(financialsQuery(who, "quarterly", undefined));
    expect(ask.params).toEqual({ security_code: "7203", period: "quarterly", years: 30 });
    expect(financialsAsk(who, "quarterly", undefined)).toBe(ask);
    expect(widestAsk(who, optionalPeriodArg("FY-1", "as_of") as PeriodArg)).toBe(
      financialsAsk(who, "annual", undefined),
    );
    // An older window: its own query, as_of last (openapi.json getFinancials as_of).
    expect(financialsAsk(who, "annual", "2010-03").params).toEqual({
      security_code: "7203",
      period: "annual",
      years: 30,
      as_of: "2010-03",
    });
  });

  test("a company looked up by name gets a new ask each time, still over the interned query", () => {
    const found = { security_code: "6758" };
    const first = financialsAsk(found, "annual", undefined);
    const second = financialsAsk({ security_code: "6758" }, "annual", undefined);
    expect(second).not.toBe(first);
    expect(second.params).toBe(first.params);
  });

  test("a query is made once per key, frozen", () => {
    let made = 0;
    const make = () => {
      made += 1;
      return { security_code: "9984", limit: 20 };
    };
    const q = internedQuery("interned-queries.test|9984", make);
    expect(internedQuery("interned-queries.test|9984", make)).toBe(q);
    expect(made).toBe(1);
    expect(Object.isFrozen(q)).toBe(true);
  });

  test("no other module of functions/ or src/excel/ keeps a memo of readings or queries", () => {
    const memos = [...sources("functions"), ...sources("src/excel")].filter((f) =>
      readFileSync(join(ROOT, f), "utf8").includes("new BoundedMemo"),
    );
    expect(memos).toEqual([join("functions", "cells", "interned-args.ts")]);
  });
});
