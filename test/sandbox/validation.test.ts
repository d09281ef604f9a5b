// Contract-driven parameter validation: 400 invalid_parameter with openapi.json ErrorDetail
// reasons; never a 5xx.
import { OPERATIONS } from "../../src/contract/generated/param-rules";
import { validateParams } from "../../sandbox/lib/validate-params";
import { get, makeSandbox, reasons, warmDataset } from "./helpers";

warmDataset();
const sandbox = makeSandbox();

describe("400 invalid_parameter details", () => {
  test("financials: both edinet_code and security_code -> 400 conflict on both", async () => {
    const answer = await get(sandbox, "/v1/financials?edinet_code=E00001&security_code=7203");
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_parameter");
    expect(reasons(answer)).toEqual(["edinet_code:conflict", "security_code:conflict"]);
    expect(answer.body.error.details[0].expected).toBe("exactly one of edinet_code, security_code");
  });

  test("financials: neither edinet_code nor security_code -> 400 missing", async () => {
    const answer = await get(sandbox, "/v1/financials");
    expect(answer.status).toBe(400);
    expect(reasons(answer)).toEqual(["edinet_code:missing", "security_code:missing"]);
  });

  test("financials: years 0 and 31 -> out_of_range with the accepted range", async () => {
    for (const years of ["0", "31"]) {
      const answer = await get(sandbox, `/v1/financials?security_code=7203&years=${years}`);
      expect(reasons(answer)).toEqual(["years:out_of_range"]);
      expect(answer.body.error.details[0].expected).toBe("integer 1..30");
    }
  });

  test("financials: years=abc and years=1.5 -> invalid_type", async () => {
    for (const years of ["abc", "1.5", ""]) {
      const answer = await get(sandbox, `/v1/financials?security_code=7203&years=${years}`);
      expect(reasons(answer)).toEqual(["years:invalid_type"]);
    }
  });

  test("financials: period=monthly -> unknown_value listing the enumeration", async () => {
    const answer = await get(sandbox, "/v1/financials?security_code=7203&period=monthly");
    expect(reasons(answer)).toEqual(["period:unknown_value"]);
    expect(answer.body.error.details[0].expected).toBe("one of annual, quarterly, semiannual");
  });

  test("financials: as_of 2024/13 and 2024-03 -> invalid_format YYYY/MM", async () => {
    for (const asOf of ["2024/13", "2024-03"]) {
      const answer = await get(sandbox, `/v1/financials?security_code=7203&as_of=${asOf}`);
      expect(reasons(answer)).toEqual(["as_of:invalid_format"]);
      expect(answer.body.error.details[0].expected).toBe("YYYY/MM");
    }
  });

  test("security code of the wrong shape -> invalid_format", async () => {
    const answer = await get(sandbox, "/v1/valuations?security_code=72");
    expect(reasons(answer)).toEqual(["security_code:invalid_format"]);
  });

  test("valuations: missing security_code -> missing", async () => {
    const answer = await get(sandbox, "/v1/valuations");
    expect(reasons(answer)).toEqual(["security_code:missing"]);
  });

  test("several problems are reported together", async () => {
    const answer = await get(sandbox, "/v1/securities?limit=0&market=Tokyo");
    expect(reasons(answer).sort()).toEqual(["limit:out_of_range", "market:unknown_value"]);
  });

  test("a date that does not exist (2024-02-30) -> invalid_format", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/prices?from=2024-02-30");
    expect(reasons(answer)).toEqual(["from:invalid_format"]);
  });

  test("securities: free text that looks like a date (q=2024-02-30) is a search, not a bad date -> 200", async () => {
    const answer = await get(sandbox, "/v1/securities?q=2024-02-30");
    expect(answer.status).toBe(200);
  });

  test("a day that does not exist in any date parameter (to, as_of) -> invalid_format", async () => {
    const to = await get(sandbox, "/v1/securities/7203/disclosures?to=2023-02-29");
    expect(reasons(to)).toEqual(["to:invalid_format"]);
    const asOf = await get(sandbox, "/v1/financials?security_code=7203&as_of=2024-02-30");
    expect(reasons(asOf)).toEqual(["as_of:invalid_format"]);
  });

  test("only the contract's date parameters are checked as dates: no other parameter is refused as a date", () => {
    const refusedAsDate: string[] = [];
    for (const [op, rule] of Object.entries(OPERATIONS)) {
      for (const param of rule.params) {
        const dated =
          param.minDate !== undefined || (param.pattern?.includes("\\d{4}-\\d{2}-\\d{2}") ?? false);
        if (dated) continue;
        try {
          validateParams(rule, { [param.name]: "2024-02-30" }, (name) =>
            name === param.name ? "2024-02-30" : undefined,
          );
        } catch (err) {
          const details = (err as { details?: { param: string; expected?: string }[] }).details;
          const asDate = details?.find(
            (d) => d.param === param.name && d.expected === "a real calendar date YYYY-MM-DD",
          );
          if (asDate !== undefined) refusedAsDate.push(`${op}.${param.name}`);
        }
      }
    }
    expect(refusedAsDate).toEqual([]);
  });

  test("securities: q longer than 100 characters -> out_of_range on length", async () => {
    const answer = await get(sandbox, `/v1/securities?q=${"a".repeat(101)}`);
    expect(reasons(answer)).toEqual(["q:out_of_range"]);
    expect(answer.body.error.details[0].expected).toBe("length 0..100");
  });

  test("disclosure include with an unknown group -> invalid_format", async () => {
    const answer = await get(sandbox, "/v1/disclosures/S1234567?include=meta,pdf");
    expect(reasons(answer)).toEqual(["include:invalid_format"]);
  });

  test("section id outside the normalized ids -> unknown_value", async () => {
    const answer = await get(sandbox, "/v1/disclosures/S1234567/sections/foo");
    expect(reasons(answer)).toEqual(["section:unknown_value"]);
  });

  test("unknown query parameters are ignored", async () => {
    const answer = await get(sandbox, "/v1/screening/fields?foo=bar&limit=abc");
    expect(answer.status).toBe(200);
  });
});

describe("malformed input never produces a 5xx", () => {
  test.each([
    "/v1/securities?q=%E0%A4%A",
    "/v1/securities/%E0%A4%A/prices",
    "/v1/securities?q=%00%FF",
    "/v1/financials?security_code=%7203",
    "/v1/persons/%20",
    "/v1/disclosures/..%2F..%2Fetc",
    "/v1/screening?filters=%%%",
    "/v1/screening?filters=a:b:c:d:e",
    "/v1/screening?sector=%E0",
    "/v1/screening?as_of=2005-13-01",
    "/v1/securities?limit=1e3",
    "/v1/securities?limit=99999999999999999999999",
    "/v1/securities?cursor=%FF%FE",
    "/v1/securities?cursor=eyJoIjoxfQ",
    "/v1/rankings/%F0%9F%98%80",
    "/v1/securities/7203/jsf-margin-daily?to=9999-12-31",
    "/v1/securities/7203/disclosures?document_type=%00",
  ])("%s -> an answer below 500 in the API's shape", async (path) => {
    const answer = await get(sandbox, path);
    expect(answer.status).toBeLessThan(500);
    if (answer.status >= 400) {
      expect(typeof answer.body.error.code).toBe("string");
      expect(typeof answer.body.error.message).toBe("string");
    } else {
      expect(answer.body.attribution).toBeDefined();
    }
  });

  test("an invalid q that matches nothing -> 200 with an empty list", async () => {
    const answer = await get(sandbox, "/v1/securities?q=%E0%A4%A");
    expect(answer.status).toBe(200);
    expect(answer.body.securities).toEqual([]);
  });

  test("unknown path -> 404 not_found", async () => {
    const answer = await get(sandbox, "/v1/nothing-here");
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("not_found");
  });

  test("POST -> 405 method_not_allowed in the common error shape", async () => {
    const res = await sandbox.app.request("/v1/usage", { method: "POST" });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      "method_not_allowed",
    );
  });
});

describe("validateParams (generic, from OPERATIONS)", () => {
  test("applies contract defaults", () => {
    const params = validateParams(OPERATIONS.getFinancials, {}, (name) =>
      name === "security_code" ? "7203" : undefined,
    );
    expect(params.reqStr("period")).toBe("annual");
    expect(params.reqNum("years")).toBe(10);
    expect(params.has("as_of")).toBe(false);
  });
});

describe("fuzz: arbitrary parameter values never produce a 5xx", () => {
  test("random strings in every parameter of every operation -> status below 500, common shape", async () => {
    const fc = await import("fast-check");
    const operations = Object.values(OPERATIONS);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: operations.length - 1 }),
        fc.array(
          fc.oneof(
            fc.string({ unit: "binary", maxLength: 12 }),
            // Well-formed values reach the handlers, where edge cases live.
            fc.constantFrom(
              "7203",
              "72030",
              "2594",
              "1306",
              "130A",
              "0000",
              "E91442",
              "E99990",
              "2005-01-01",
              "2026-11-19",
              "2099-12-31",
              "2024/03",
              "1990",
              "2200",
              "1",
              "500",
              "now",
              "asc",
              "annual",
              "quarterly",
              "quarter",
              "26w",
              "1m",
              "XNGO",
              "gainers",
              "stop-low",
              "meta,sections",
              "mda",
              "marketCap:gte:1:hundred_million_jpy",
              "per:lt:0.5:ratio",
            ),
          ),
          { minLength: 6, maxLength: 6 },
        ),
        async (index, values) => {
          const rule = operations[index]!;
          let path = rule.path;
          const query = new URLSearchParams();
          rule.params.forEach((param, i) => {
            const value = values[i % values.length] ?? "";
            if (param.in === "path")
              path = path.replace(`{${param.name}}`, encodeURIComponent(value) || "x");
            else query.set(param.name, value);
          });
          const answer = await get(sandbox, `/v1${path}?${query.toString()}`);
          expect(answer.status).toBeLessThan(500);
          if (answer.status >= 400) expect(typeof answer.body.error.code).toBe("string");
        },
      ),
      { numRuns: 400, seed: 20261122 },
    );
  });
});
