// Contract tests: every endpoint's success and error bodies validate against src/contract/openapi.json.
import { get, makeSandbox, warmDataset, type Answer } from "./helpers";
import { contractErrors, OPERATION_IDS } from "./contract-validator";

warmDataset();
const sandbox = makeSandbox();

/** Identifiers discovered through the API itself, so the tests follow the dataset. */
interface Ids {
  edinet: string;
  docEdinet: string;
  docTdnet: string;
  personId: string;
}

async function discoverIds(): Promise<Ids> {
  const financials = await get(sandbox, "/v1/financials?security_code=7203&years=1");
  const list = await get(sandbox, "/v1/securities/7203/disclosures?limit=100");
  const disclosures = list.body.disclosures as { doc_id: string; source: string }[];
  const officers = await get(sandbox, "/v1/securities/7203/officers");
  const docEdinet = disclosures.find((d) => d.source === "edinet")?.doc_id;
  const docTdnet = disclosures.find((d) => d.source === "tdnet")?.doc_id;
  const personId = (officers.body.officers as { person_id: string }[])[0]?.person_id;
  if (docEdinet === undefined || docTdnet === undefined || personId === undefined) {
    throw new Error("dataset lacks a statutory document, a timely document or an officer for 7203");
  }
  return { edinet: financials.body.edinet_code as string, docEdinet, docTdnet, personId };
}

type Case = [operationId: string, path: (ids: Ids) => string, status: number];

const SUCCESS: Case[] = [
  [
    "getScreening",
    () => "/v1/screening?filters=marketCap:gte:100:hundred_million_jpy&sort_by=marketCap&limit=5",
    200,
  ],
  ["getScreening", () => "/v1/screening?name=存在しない名前", 200],
  ["getScreeningFields", () => "/v1/screening/fields", 200],
  ["getUsage", () => "/v1/usage", 200],
  ["listSecurities", () => "/v1/securities?limit=5", 200],
  ["getPrices", () => "/v1/securities/7203/prices?limit=5", 200],
  ["getPrices", () => "/v1/securities/7203/prices?from=2005-01-01&to=2005-01-02", 200],
  ["getRankings", () => "/v1/rankings/gainers?limit=5", 200],
  ["getRankings", () => "/v1/rankings/volume", 200],
  ["getRankings", () => "/v1/rankings/stop-high", 200],
  ["getValuations", () => "/v1/valuations?security_code=7203&years=3", 200],
  ["getFinancials", () => "/v1/financials?security_code=7203", 200],
  [
    "getFinancials",
    (ids) => `/v1/financials?edinet_code=${ids.edinet}&period=quarterly&years=2`,
    200,
  ],
  [
    "getFinancials",
    (ids) => `/v1/financials?edinet_code=${ids.edinet}&period=semiannual&years=2`,
    200,
  ],
  ["getFinancials", () => "/v1/financials?security_code=7203&as_of=2004/01", 200],
  ["getSegments", (ids) => `/v1/segments?edinet_code=${ids.edinet}`, 200],
  ["getSegments", (ids) => `/v1/segments?edinet_code=${ids.edinet}&period=quarter`, 200],
  ["getDividends", (ids) => `/v1/dividends?edinet_code=${ids.edinet}`, 200],
  [
    "getDividends",
    (ids) => `/v1/dividends?edinet_code=${ids.edinet}&from_fiscal_year=1990&to_fiscal_year=1991`,
    200,
  ],
  ["getOrganization", (ids) => `/v1/organizations/${ids.edinet}`, 200],
  ["getPeers", () => "/v1/peers?security_code=7203", 200],
  ["listSecurityDisclosures", () => "/v1/securities/7203/disclosures?limit=3", 200],
  ["getDisclosure", (ids) => `/v1/disclosures/${ids.docEdinet}`, 200],
  ["getDisclosure", (ids) => `/v1/disclosures/${ids.docTdnet}?include=meta`, 200],
  [
    "getDisclosureSection",
    (ids) => `/v1/disclosures/${ids.docEdinet}/sections/business_overview`,
    200,
  ],
  ["getDisclosureSection", (ids) => `/v1/disclosures/${ids.docTdnet}/sections/audit`, 200],
  ["getOfficers", () => "/v1/securities/7203/officers", 200],
  ["getPerson", (ids) => `/v1/persons/${ids.personId}`, 200],
  ["getPersonAppointments", (ids) => `/v1/persons/${ids.personId}/appointments`, 200],
  [
    "getPersonCompensationHistory",
    (ids) => `/v1/persons/${ids.personId}/compensation-history`,
    200,
  ],
  ["getWeeklyMarginBalance", () => "/v1/securities/7203/weekly-margin-balance", 200],
  ["getWeeklyMarginBalance", () => "/v1/securities/7203/weekly-margin-balance?period=26w", 200],
  ["getJsfMarginDaily", () => "/v1/securities/7203/jsf-margin-daily", 200],
  ["getJsfMarginDaily", () => "/v1/securities/7203/jsf-margin-daily?period=1m", 200],
];

const ERRORS: Case[] = [
  ["getScreening", () => "/v1/screening?filters=marketCap:gte:500", 400],
  ["getScreening", () => "/v1/screening?limit=0", 400],
  ["getScreeningFields", () => "/v1/screening/fields", 401],
  ["getUsage", () => "/v1/usage", 401],
  ["listSecurities", () => "/v1/securities?cursor=bogus", 400],
  ["getPrices", () => "/v1/securities/0000/prices", 404],
  ["getPrices", () => "/v1/securities/7203/prices?from=2004-12-31", 400],
  ["getRankings", () => "/v1/rankings/unknown", 404],
  ["getRankings", () => "/v1/rankings/gainers?limit=201", 400],
  ["getValuations", () => "/v1/valuations?security_code=0000", 404],
  ["getValuations", () => "/v1/valuations?security_code=7203&years=51", 400],
  ["getFinancials", () => "/v1/financials", 400],
  ["getFinancials", () => "/v1/financials?edinet_code=E00000", 404],
  ["getSegments", () => "/v1/segments?edinet_code=E00000", 404],
  ["getSegments", () => "/v1/segments?edinet_code=E00000&fiscal_year=1989", 400],
  ["getDividends", () => "/v1/dividends?edinet_code=E00000", 404],
  ["getDividends", () => "/v1/dividends", 400],
  ["getOrganization", () => "/v1/organizations/E00000", 404],
  ["getOrganization", () => "/v1/organizations/X1", 400],
  ["getPeers", () => "/v1/peers?security_code=0000", 404],
  ["getPeers", () => "/v1/peers?security_code=7203&limit=21", 400],
  ["listSecurityDisclosures", () => "/v1/securities/1306/disclosures", 404],
  ["listSecurityDisclosures", () => "/v1/securities/7203/disclosures?limit=101", 400],
  ["getDisclosure", () => "/v1/disclosures/S0000000", 404],
  ["getDisclosure", () => "/v1/disclosures/bad", 400],
  ["getDisclosureSection", () => "/v1/disclosures/S0000000/sections/mda", 404],
  ["getDisclosureSection", () => "/v1/disclosures/S0000000/sections/nope", 400],
  ["getOfficers", () => "/v1/securities/0000/officers", 404],
  ["getPerson", () => "/v1/persons/999999999", 404],
  ["getPerson", () => "/v1/persons/abc", 400],
  ["getPersonAppointments", () => "/v1/persons/999999999/appointments", 404],
  ["getPersonCompensationHistory", () => "/v1/persons/999999999/compensation-history", 404],
  ["getWeeklyMarginBalance", () => "/v1/securities/0000/weekly-margin-balance", 404],
  ["getWeeklyMarginBalance", () => "/v1/securities/7203/weekly-margin-balance?period=13w", 400],
  ["getJsfMarginDaily", () => "/v1/securities/0000/jsf-margin-daily", 404],
  ["getJsfMarginDaily", () => "/v1/securities/7203/jsf-margin-daily?period=2y", 400],
];

let ids: Ids;
beforeAll(async () => {
  ids = await discoverIds();
});

async function answerFor(path: string, status: number): Promise<Answer> {
  return get(sandbox, path, status === 401 ? { authorization: null } : {});
}

describe("contract: success bodies", () => {
  test("every operation of the contract has at least one success case here", () => {
    expect(new Set(SUCCESS.map(([op]) => op))).toEqual(new Set(OPERATION_IDS));
  });

  test.each(SUCCESS)("%s %#: 200 body matches the schema", async (operationId, path, status) => {
    const answer = await answerFor(path(ids), status);
    expect(answer.status).toBe(status);
    expect(contractErrors(operationId, status, answer.body)).toEqual([]);
    expect(answer.body.attribution.source_label).toBe("IRBANK（サンプルデータ）");
  });
});

describe("contract: error bodies", () => {
  test.each(ERRORS)("%s %#: error body matches the schema", async (operationId, path, status) => {
    const answer = await answerFor(path(ids), status);
    expect(answer.status).toBe(status);
    expect(contractErrors(operationId, status, answer.body)).toEqual([]);
  });

  test("every operation: 401 body matches its Unauthorized response", async () => {
    for (const [operationId, path] of SUCCESS) {
      const answer = await get(sandbox, path(ids), { authorization: null });
      expect(answer.status).toBe(401);
      expect(contractErrors(operationId, 401, answer.body)).toEqual([]);
    }
  });

  test("every operation: 429 body matches its RateLimited response and carries Retry-After", async () => {
    const limited = makeSandbox({ dailyLimit: 0, ratePerMinute: 1 });
    await get(limited, "/v1/usage");
    for (const [operationId, path] of SUCCESS) {
      const answer = await get(limited, path(ids));
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(contractErrors(operationId, 429, answer.body)).toEqual([]);
    }
  });

  test("rankings 503 body matches the DataUnavailable response", async () => {
    const down = makeSandbox({ priceDataAvailable: false });
    const answer = await get(down, "/v1/rankings/gainers");
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe("data_unavailable");
    expect(contractErrors("getRankings", 503, answer.body)).toEqual([]);
  });
});
