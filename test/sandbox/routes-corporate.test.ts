// Route behaviour of the corporation endpoints: financials, valuations, segments, dividends,
// organizations, peers, officers and persons.
import { getDataset } from "../../sandbox/data";
import { get, makeSandbox, reasons, warmDataset } from "./helpers";

warmDataset();
const sandbox = makeSandbox();
const edinetOf = (code: string): string =>
  getDataset().securities.find((s) => s.code === code)?.edinet_code ?? "";
type Period = { fiscal_year: string; quarter?: string };
const labels = (body: { periods: Period[] }): string[] =>
  body.periods.map((p) =>
    p.quarter === undefined ? p.fiscal_year : `${p.fiscal_year} ${p.quarter}`,
  );

describe("GET /financials (openapi.json getFinancials)", () => {
  test("annual default: the latest 10 fiscal years, oldest first, with edinet_code and fields", async () => {
    const answer = await get(sandbox, "/v1/financials?security_code=7203");
    expect(answer.status).toBe(200);
    expect(answer.body.edinet_code).toBe(edinetOf("7203"));
    expect(labels(answer.body)).toEqual([
      "2017/03",
      "2018/03",
      "2019/03",
      "2020/03",
      "2021/03",
      "2022/03",
      "2023/03",
      "2024/03",
      "2025/03",
      "2026/03",
    ]);
    expect(answer.body.fields).toContainEqual({ key: "sales", label: "売上高", unit: "jpy" });
    expect(answer.body.reason).toBeNull();
  });

  test("years=3 returns the last three periods; edinet_code gives the same answer", async () => {
    const bySecurity = await get(sandbox, "/v1/financials?security_code=7203&years=3");
    expect(labels(bySecurity.body)).toEqual(["2024/03", "2025/03", "2026/03"]);
    const byEdinet = await get(sandbox, `/v1/financials?edinet_code=${edinetOf("7203")}&years=3`);
    expect(byEdinet.body).toEqual(bySecurity.body);
  });

  test("as_of bounds by month end: 2020/03 includes FY 2020/03, 2020/02 does not (rule 1)", async () => {
    const march = await get(sandbox, "/v1/financials?security_code=7203&years=2&as_of=2020/03");
    expect(labels(march.body)).toEqual(["2019/03", "2020/03"]);
    const february = await get(sandbox, "/v1/financials?security_code=7203&years=2&as_of=2020/02");
    expect(labels(february.body)).toEqual(["2018/03", "2019/03"]);
  });

  test("as_of before any period -> 200 with empty periods and no_results", async () => {
    const answer = await get(sandbox, "/v1/financials?security_code=7203&as_of=2001/01");
    expect(answer.body.periods).toEqual([]);
    expect(answer.body.reason.code).toBe("no_results");
  });

  test("quarterly default: periods of the last N fiscal years incl. the running year's published quarters", async () => {
    const answer = await get(sandbox, "/v1/financials?security_code=7203&period=quarterly&years=2");
    expect(labels(answer.body)).toEqual([
      "2026/03 Q1",
      "2026/03 Q2",
      "2026/03 Q3",
      "2026/03 Q4",
      "2026/03 full_year",
      "2027/03 Q1",
      "2027/03 Q2",
    ]);
  });

  test("quarterly with as_of excludes a running year that ends later (rule 1)", async () => {
    const answer = await get(
      sandbox,
      "/v1/financials?security_code=7203&period=quarterly&years=1&as_of=2026/10",
    );
    expect(labels(answer.body)).toEqual([
      "2026/03 Q1",
      "2026/03 Q2",
      "2026/03 Q3",
      "2026/03 Q4",
      "2026/03 full_year",
    ]);
  });

  test("semiannual: H1 and full_year rows only", async () => {
    const answer = await get(
      sandbox,
      "/v1/financials?security_code=7203&period=semiannual&years=2",
    );
    expect(labels(answer.body)).toEqual(["2026/03 H1", "2026/03 full_year", "2027/03 H1"]);
  });

  test("24-hour rule: a fiscal year appears 24 hours after its results tanshin (financials, valuations)", async () => {
    // 3697 released its FY2026/09 tanshin three hours before the default data clock.
    const tanshin = getDataset().disclosures.find(
      (d) => d.security_code === "3697" && (d.item.title ?? "").startsWith("2026年9月期 決算短信"),
    );
    expect(tanshin).toBeDefined();
    const at = Date.parse(tanshin!.meta.disclosed_at);
    const clock = makeSandbox();
    const latest = async (): Promise<[string, string]> => [
      labels((await get(clock, "/v1/financials?security_code=3697&years=1")).body)[0] ?? "",
      (await get(clock, "/v1/valuations?security_code=3697&years=1")).body.history[0]?.fiscal_year,
    ];
    expect(await latest()).toEqual(["2025/09", "2025/09"]);
    clock.setNow(new Date(at + 24 * 3600_000 - 1000).toISOString());
    expect(await latest()).toEqual(["2025/09", "2025/09"]);
    clock.setNow(new Date(at + 24 * 3600_000).toISOString());
    expect(await latest()).toEqual(["2026/09", "2026/09"]);
  });

  test("an earlier data clock hides periods that had not ended", async () => {
    const rewound = makeSandbox({ now: "2020-01-15T00:00:00Z" });
    const answer = await get(rewound, "/v1/financials?security_code=7203&years=1");
    expect(labels(answer.body)).toEqual(["2019/03"]);
  });

  test.each([
    ["a non-primary share class", "security_code=2594"],
    ["an ETF (no statutory filer)", "security_code=1306"],
    ["an unknown security", "security_code=0000"],
    ["an unlisted corporation", "edinet_code=E99990"],
    ["an unknown corporation", "edinet_code=E00000"],
  ])("%s -> 404 not_found", async (_name, query) => {
    const answer = await get(sandbox, `/v1/financials?${query}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("not_found");
  });
});

describe("GET /valuations (openapi.json getValuations)", () => {
  test("newest fiscal year first, years window, per_5y_avg, fields without fiscal_year/per_source", async () => {
    const answer = await get(sandbox, "/v1/valuations?security_code=7203&years=3");
    expect(answer.status).toBe(200);
    expect(answer.body.history.map((h: { fiscal_year: string }) => h.fiscal_year)).toEqual([
      "2026/03",
      "2025/03",
      "2024/03",
    ]);
    expect(answer.body.per_5y_avg).toBe(getDataset().valuations.get("7203")?.per_5y_avg);
    const keys = answer.body.fields.map((f: { key: string }) => f.key);
    expect(keys).toContain("market_cap");
    expect(keys).not.toContain("fiscal_year");
    expect(keys).not.toContain("per_source");
  });

  test("default years=20", async () => {
    const answer = await get(sandbox, "/v1/valuations?security_code=7203");
    expect(answer.body.history).toHaveLength(20);
  });

  test("unknown security -> 404", async () => {
    expect((await get(sandbox, "/v1/valuations?security_code=0000")).status).toBe(404);
  });
});

describe("GET /segments (openapi.json getSegments)", () => {
  test("ordered fiscal_year desc, quarter desc, segment_name asc; fiscal_year filters", async () => {
    const answer = await get(
      sandbox,
      `/v1/segments?edinet_code=${edinetOf("7203")}&period=quarter&fiscal_year=2026`,
    );
    expect(answer.status).toBe(200);
    const rows = answer.body.segments as {
      fiscal_year: string;
      quarter: number;
      segment_name: string;
    }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.fiscal_year.startsWith("2026/"))).toBe(true);
    const sorted = [...rows].sort(
      (a, b) =>
        b.fiscal_year.localeCompare(a.fiscal_year) ||
        b.quarter - a.quarter ||
        (a.segment_name < b.segment_name ? -1 : a.segment_name > b.segment_name ? 1 : 0),
    );
    expect(rows).toEqual(sorted);
    expect(answer.body.fields).toContainEqual({
      key: "revenue",
      label: expect.any(String),
      unit: "jpy",
    });
  });

  test("default: at most about 20 fiscal years", async () => {
    const answer = await get(sandbox, `/v1/segments?edinet_code=${edinetOf("7203")}`);
    const years = new Set(answer.body.segments.map((r: { fiscal_year: string }) => r.fiscal_year));
    expect(years.size).toBeLessThanOrEqual(20);
    expect(answer.body.segments.every((r: { quarter: null }) => r.quarter === null)).toBe(true);
  });

  test("24-hour rule: rows from a disclosure under 24 hours old appear only after 24 hours", async () => {
    const recent = [...getDataset().segments.entries()]
      .flatMap(([edinet, s]) => s.annual.map((r) => ({ edinet, r })))
      .find(({ r }) => r.source_disclosed_at > "2026-11-19T09:00:00Z");
    expect(recent).toBeDefined();
    const { edinet, r } = recent!;
    const path = `/v1/segments?edinet_code=${edinet}&fiscal_year=${r.row.fiscal_year.slice(0, 4)}`;
    const clock = makeSandbox();
    const has = async (): Promise<boolean> =>
      (await get(clock, path)).body.segments.some(
        (row: { fiscal_year: string; segment_name: string }) =>
          row.fiscal_year === r.row.fiscal_year && row.segment_name === r.row.segment_name,
      );
    const at = Date.parse(r.source_disclosed_at);
    clock.setNow(new Date(at + 24 * 3600_000 - 1000).toISOString());
    expect(await has()).toBe(false);
    clock.setNow(new Date(at + 24 * 3600_000).toISOString());
    expect(await has()).toBe(true);
  });

  test("fiscal_year outside 1990..2100 -> 400; unknown corporation -> 404", async () => {
    expect(
      reasons(await get(sandbox, `/v1/segments?edinet_code=${edinetOf("7203")}&fiscal_year=2101`)),
    ).toEqual(["fiscal_year:out_of_range"]);
    expect((await get(sandbox, "/v1/segments?edinet_code=E00000")).status).toBe(404);
  });
});

describe("GET /dividends (openapi.json getDividends)", () => {
  test("fiscal_year ascending with edinet_code and security_code; from/to bound inclusively", async () => {
    const answer = await get(
      sandbox,
      `/v1/dividends?edinet_code=${edinetOf("7203")}&from_fiscal_year=2020&to_fiscal_year=2022`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.security_code).toBe("7203");
    expect(answer.body.edinet_code).toBe(edinetOf("7203"));
    expect(answer.body.records.map((r: { fiscal_year: number }) => r.fiscal_year)).toEqual([
      2020, 2021, 2022,
    ]);
  });

  test("a range without records -> 200 empty with no_results", async () => {
    const answer = await get(
      sandbox,
      `/v1/dividends?edinet_code=${edinetOf("7203")}&to_fiscal_year=1950`,
    );
    expect(answer.body.records).toEqual([]);
    expect(answer.body.reason.code).toBe("no_results");
  });

  test("a record appears once one of its source disclosures is visible (24-hour rule)", async () => {
    const edinet = edinetOf("7203");
    const latest = getDataset().dividends.get(edinet)?.at(-1);
    const sources = getDataset().disclosures.filter((d) =>
      latest?.source_refs.some((ref) => ref.doc_id === d.item.doc_id),
    );
    expect(sources.length).toBeGreaterThan(0);
    const first = Math.min(
      ...sources.map((d) => Date.parse(d.meta.available_for_redistribution_at)),
    );
    const clock = makeSandbox();
    const years = async (): Promise<number[]> =>
      (await get(clock, `/v1/dividends?edinet_code=${edinet}`)).body.records.map(
        (r: { fiscal_year: number }) => r.fiscal_year,
      );
    clock.setNow(new Date(first - 1000).toISOString());
    expect(await years()).not.toContain(latest?.fiscal_year);
    clock.setNow(new Date(first).toISOString());
    expect(await years()).toContain(latest?.fiscal_year);
  });

  test("unlisted corporation -> 404", async () => {
    expect((await get(sandbox, "/v1/dividends?edinet_code=E99990")).status).toBe(404);
  });
});

describe("GET /organizations/{edinet_code} (openapi.json getOrganization)", () => {
  test("name, address and the primary security only", async () => {
    const answer = await get(sandbox, `/v1/organizations/${edinetOf("2593")}`);
    expect(answer.body).toMatchObject({
      edinet_code: edinetOf("2593"),
      listed_security_codes: ["2593"],
    });
    expect(answer.body.name_ja).toContain("若葉飲料");
  });

  test("not listed -> 404", async () => {
    expect((await get(sandbox, "/v1/organizations/E99990")).status).toBe(404);
  });
});

describe("GET /peers (openapi.json getPeers)", () => {
  test("ascending by code, requester excluded, first `limit`", async () => {
    const all = await get(sandbox, "/v1/peers?security_code=7203");
    const codes = all.body.peers.map((p: { security_code: string }) => p.security_code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).not.toContain("7203");
    const one = await get(sandbox, "/v1/peers?security_code=7203&limit=1");
    expect(one.body.peers.map((p: { security_code: string }) => p.security_code)).toEqual(
      codes.slice(0, 1),
    );
  });

  test("no competitor analysis -> 200 empty with no_results; unknown security -> 404", async () => {
    const none = await get(sandbox, "/v1/peers?security_code=130A");
    expect(none.body.peers).toEqual([]);
    expect(none.body.reason.code).toBe("no_results");
    expect((await get(sandbox, "/v1/peers?security_code=0000")).status).toBe(404);
  });
});

describe("officers and persons (openapi.json getOfficers, getPerson*)", () => {
  test("officers: current, then nominees, then retired", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/officers");
    const groups = answer.body.officers.map(
      (o: { is_current: boolean; is_next_term_nominee: boolean }) =>
        o.is_current ? 0 : o.is_next_term_nominee ? 1 : 2,
    );
    expect(groups).toEqual([...groups].sort());
    expect(answer.body.reason).toBeNull();
  });

  test("officers of a security without officer data -> 200 empty; unknown -> 404", async () => {
    const etf = await get(sandbox, "/v1/securities/1306/officers");
    expect(etf.body.officers).toEqual([]);
    expect(etf.body.reason.code).toBe("no_results");
    expect((await get(sandbox, "/v1/securities/0000/officers")).status).toBe(404);
  });

  test("person, appointments (current first, then tenure desc) and compensation", async () => {
    const officer = (await get(sandbox, "/v1/securities/7203/officers")).body.officers[0];
    const person = await get(sandbox, `/v1/persons/${officer.person_id}`);
    expect(person.body).toMatchObject({ person_id: officer.person_id, name: officer.name });
    const appointments = (await get(sandbox, `/v1/persons/${officer.person_id}/appointments`)).body
      .appointments as {
      is_current: boolean;
      tenure_years: number;
    }[];
    const order = [...appointments].sort(
      (a, b) => Number(b.is_current) - Number(a.is_current) || b.tenure_years - a.tenure_years,
    );
    expect(appointments).toEqual(order);
    const compensation = await get(
      sandbox,
      `/v1/persons/${officer.person_id}/compensation-history`,
    );
    expect(compensation.status).toBe(200);
    expect(Array.isArray(compensation.body.companies)).toBe(true);
  });

  test("a person without compensation data -> 200 with empty companies and no_results", async () => {
    const id = [...getDataset().persons.values()].find(
      (p) => p.compensation.length === 0,
    )?.person_id;
    const answer = await get(sandbox, `/v1/persons/${id}/compensation-history`);
    expect(answer.status).toBe(200);
    expect(answer.body.companies).toEqual([]);
    expect(answer.body.reason.code).toBe("no_results");
  });

  test("unknown person -> 404 on all three person endpoints", async () => {
    for (const suffix of ["", "/appointments", "/compensation-history"]) {
      expect((await get(sandbox, `/v1/persons/1${suffix}`)).status).toBe(404);
    }
  });
});
