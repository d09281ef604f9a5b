// Fuzzes the sandbox's paths and query strings: never a 5xx, every error is the common error object.
import fc from "fast-check";
import openapi from "../../src/contract/openapi.json";
import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { errorShapeProblems } from "./support/error-shape";

// Generous per-test bound: the first test of a file also builds the sandbox dataset (seconds on a
// busy 2-core machine). A liveness bound, not a timing assertion.
jest.setTimeout(60_000);

interface ParamSpec {
  name: string;
  in: string;
  schema: { type?: string; enum?: string[]; minimum?: number; maximum?: number; pattern?: string };
}

interface Operation {
  template: string;
  params: ParamSpec[];
}

const OPERATIONS: Operation[] = Object.entries(openapi.paths).map(([template, item]) => ({
  template,
  params: ((item as { get: { parameters?: ParamSpec[] } }).get.parameters ?? []) as ParamSpec[],
}));

const AUTH = { Authorization: `Bearer ${DEMO_API_KEY}` };

/** Values that look right, so the fuzz also reaches the handlers behind validation. */
const plausible: Record<string, string[]> = {
  code: ["7203", "130A", "1301", "9999", "0000A"],
  security_code: ["7203", "130A", "9984", "ZZZZ"],
  edinet_code: ["E02144", "E00001", "G00001", "E99999"],
  doc_id: ["S1000001", "S100ABCD", "20261101120000", "99999999999999"],
  id: ["1", "100", "999999999", "0"],
  metric: ["gainers", "losers", "volume", "stop-high", "stop-low"],
  from: ["2005-01-01", "2004-12-31", "2020-02-30", "2026-11-19"],
  to: ["2026-11-19", "2005-01-04", "2030-01-01", "2026-13-01"],
  as_of: ["now", "2005-01-01", "2026/03", "2004-12-31", "2099-01-01"],
  filters: ["per:lt:15", "marketCap:gte:100000000000", "per:lt:15:percent", "roe:gt:10:percent"],
};

/** Hostile text: type confusion, formats, Unicode, control characters, huge and encoded input. */
const hostileText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "NaN",
    "Infinity",
    "-1",
    "0",
    "1e309",
    "1.5",
    "0x10",
    "null",
    "undefined",
    "true",
    "[]",
    "{}",
    "%00",
    "..",
    "../..",
    "'; DROP TABLE x;--",
    "<script>",
    "７２０３",
    "Ｅ０２１４４",
    "\u0000",
    "\uD800",
    "a,b,,c",
    ",,,",
    "per:lt",
    "per:lt:15:unknown_unit:extra",
    "x:y:z",
    "2026-02-29",
    "9999-99-99",
  ),
  fc.integer({ min: -1e12, max: 1e12 }).map(String),
  fc.double().map(String),
  fc.nat({ max: 20_000 }).map((n) => "9".repeat(n)),
);

function valueFor(param: ParamSpec): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [hostileText];
  const known = plausible[param.name];
  if (known !== undefined) choices.push(fc.constantFrom(...known));
  if (param.schema.enum !== undefined) choices.push(fc.constantFrom(...param.schema.enum));
  if (param.schema.type === "integer") {
    const min = param.schema.minimum ?? 0;
    const max = param.schema.maximum ?? 1000;
    choices.push(fc.integer({ min: min - 2, max: max + 2 }).map(String));
  }
  return fc.oneof(...choices);
}

/** encodeURIComponent that never throws: lone surrogates become U+FFFD, as URLSearchParams does. */
function encode(value: string): string {
  return encodeURIComponent(
    value.replace(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      "\uFFFD",
    ),
  );
}

/** Encodes a path segment, sometimes leaving raw or broken escapes in place. */
const segmentEncoding = fc.constantFrom<"encode" | "raw" | "broken">(
  "encode",
  "encode",
  "raw",
  "broken",
);

function encodeSegment(value: string, how: "encode" | "raw" | "broken"): string {
  if (how === "encode") return encode(value);
  if (how === "broken") return `${encode(value)}%E0%A4%`;
  return value.replace(/[#?\s]/g, "");
}

const operationRequest: fc.Arbitrary<string> = fc
  .constantFrom(...OPERATIONS)
  .chain((op) => {
    const pathParams = op.params.filter((p) => p.in === "path");
    const queryParams = op.params.filter((p) => p.in === "query");
    return fc.record({
      op: fc.constant(op),
      path: fc.tuple(
        ...pathParams.map((p) => fc.tuple(fc.constant(p.name), valueFor(p), segmentEncoding)),
      ),
      query: fc
        .subarray(queryParams)
        .chain((chosen) =>
          fc.tuple(...chosen.map((p) => fc.tuple(fc.constant(p.name), valueFor(p)))),
        ),
      extra: fc.array(fc.tuple(hostileText, hostileText), { maxLength: 2 }),
      duplicate: fc.boolean(),
    });
  })
  .map(({ op, path, query, extra, duplicate }) => {
    let url = `/v1${op.template}`;
    for (const [name, value, how] of path)
      url = url.replace(`{${name}}`, encodeSegment(value, how));
    const search = new URLSearchParams();
    for (const [name, value] of query) {
      search.append(name, value);
      if (duplicate) search.append(name, value);
    }
    for (const [name, value] of extra) search.append(name, value);
    const qs = search.toString();
    return qs === "" ? url : `${url}?${qs}`;
  });

/** Paths that match no route, or only almost. */
const strayPath: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "/",
    "/v1",
    "/v1/",
    "/v2/financials",
    "//v1//financials",
    "/v1/financials/",
    "/v1/securities/",
    "/v1/securities//prices",
    "/v1/securities/7203/prices/extra",
    "/v1/disclosures/S1000001/sections/",
    "/v1/rankings",
    "/v1/persons/1/unknown",
    "/v1/%2e%2e/usage",
    "/v1/securities/%ZZ/prices",
    "/v1/organizations/%00",
  ),
  fc
    .array(
      hostileText.map((s) => encode(s)),
      { minLength: 1, maxLength: 4 },
    )
    .map((segments) => `/v1/${segments.join("/")}`),
);

type SandboxApp = ReturnType<typeof createApp>["app"];

async function call(
  app: SandboxApp,
  url: string,
  headers: Record<string, string> = AUTH,
): Promise<Response> {
  return await app.request(`http://sandbox.test${url}`, { headers });
}

async function expectWellFormed(response: Response, url: string): Promise<void> {
  const text = await response.text();
  if (response.status >= 500)
    throw new Error(`${response.status} for ${url}: ${text.slice(0, 300)}`);
  if (response.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${response.status} for ${url} is not JSON: ${text.slice(0, 200)}`);
    }
    const problems = errorShapeProblems(body);
    if (problems.length > 0)
      throw new Error(`${response.status} for ${url}: ${problems.join("; ")}`);
  }
}

describe("sandbox fuzzing (in process)", () => {
  const { app } = createApp({ ratePerMinute: 0, dailyLimit: 1_000_000 });

  it("answers any parameter values on every endpoint without a 5xx, errors in the common shape", async () => {
    await fc.assert(
      fc.asyncProperty(operationRequest, async (url) => {
        await expectWellFormed(await call(app, url), url);
      }),
      { numRuns: 400 },
    );
  });

  it("answers unknown and malformed paths with a common-shape error, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(strayPath, async (url) => {
        const response = await call(app, url);
        expect(response.status).toBeGreaterThanOrEqual(400);
        await expectWellFormed(response, url);
      }),
      { numRuns: 150 },
    );
  });

  it("answers hostile Authorization headers with 401 in the common shape", async () => {
    const header = fc.oneof(
      fc.constantFrom(
        "",
        "Bearer",
        "Bearer ",
        `Bearer  ${DEMO_API_KEY}`,
        DEMO_API_KEY,
        `bearer ${DEMO_API_KEY}`,
      ),
      fc.string().map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, "")}x`),
    );
    const validUrls = [
      "/v1/usage",
      "/v1/financials?security_code=7203",
      "/v1/securities/7203/prices",
    ];
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom(...validUrls), async (value, url) => {
        const response = await call(app, url, value === "" ? {} : { Authorization: value });
        expect(response.status).toBe(401);
        await expectWellFormed(response, url);
      }),
      { numRuns: 100 },
    );
  });

  it("rejects forged and foreign cursors with 400, not a 5xx", async () => {
    const cursorPaths = [
      "/v1/screening",
      "/v1/securities",
      "/v1/securities/7203/prices",
      "/v1/securities/7203/disclosures",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cursorPaths),
        hostileText.filter((c) => c.trim() !== ""),
        async (path, cursor) => {
          const url = `${path}?cursor=${encode(cursor)}`;
          const response = await call(app, url);
          expect(response.status).not.toBe(200);
          await expectWellFormed(response, url);
        },
      ),
      { numRuns: 100 },
    );
  });
});
