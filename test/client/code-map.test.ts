// The one code registry: pairs learned from answers, per key and server, read by EDINET and company resolution.

import { CodeRegistry } from "../../src/client/code-map";
import { codePairsIn } from "../../src/client/code-pairs";
import { createClient } from "../../src/client/client";
import { resolveSecurityCode } from "../../src/domain/company-resolver";
import { TEST_KEY, annualBody, recordingFetch, reply } from "./helpers";
import { resolveEdinetCode } from "../../src/domain/edinet-resolution";
import { widestFinancials } from "../../src/domain/financials-window";

const OTHER_KEY = "kaisha_key_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zyxwvutsrqpon";

function setup(apiKey: { current: string } = { current: TEST_KEY }) {
  const rec = recordingFetch((req) =>
    req.url.includes("/organizations/")
      ? reply(200, { edinet_code: "E01777", listed_security_codes: ["6758"], attribution: {} })
      : reply(200, annualBody(30, "E02144")),
  );
  const client = createClient({
    apiKey: () => apiKey.current,
    fetch: rec.fetch,
    ratePerMinute: 0,
    now: () => Date.UTC(2026, 0, 15, 1, 0),
  });
  return { rec, client, apiKey };
}

describe("CodeRegistry", () => {
  test("a pair learned is read both ways, in its partition only", () => {
    const codes = new CodeRegistry();
    codes.learn("p1", "7203", "E02144");
    expect(codes.edinetOf("p1", "7203")).toBe("E02144");
    expect(codes.securityOf("p1", "E02144")).toBe("7203");
    expect(codes.edinetOf("p2", "7203")).toBeUndefined();
    expect(codes.securityOf("p2", "E02144")).toBeUndefined();
  });

  test("forgetting a partition drops its pairs and keeps the others'", () => {
    const codes = new CodeRegistry();
    codes.learn("p1", "7203", "E02144");
    codes.learn("p2", "6758", "E01777");
    codes.forget(["p1"]);
    expect(codes.edinetOf("p1", "7203")).toBeUndefined();
    expect(codes.edinetOf("p2", "6758")).toBe("E01777");
    codes.clear();
    expect(codes.securityOf("p2", "E01777")).toBeUndefined();
  });

  test("codePairsIn reads an organization's pair only when it lists exactly one security", () => {
    const one = { edinet_code: "E01777", listed_security_codes: ["6758"] };
    const two = { edinet_code: "E00001", listed_security_codes: ["1111", "1112"] };
    expect(codePairsIn("getOrganization", one)).toEqual([["6758", "E01777"]]);
    expect(codePairsIn("getOrganization", two)).toEqual([]);
  });
});

describe("the client's code registry", () => {
  test("/financials by security code teaches the pair both ways, for the key that asked", async () => {
    const { client, apiKey } = setup();
    expect(client.knownCode("security_code", "E02144")).toBeUndefined();
    await widestFinancials(client, { security_code: "7203" });
    expect(client.knownCode("security_code", "E02144")).toBe("7203");
    expect(client.knownCode("edinet_code", "7203")).toBe("E02144");
    apiKey.current = OTHER_KEY;
    expect(client.knownCode("security_code", "E02144")).toBeUndefined();
  });

  test("EDINET resolution reads the pair /financials taught: no request", async () => {
    const { rec, client } = setup();
    await widestFinancials(client, { security_code: "7203" });
    expect(await resolveEdinetCode(client, "7203")).toBe("E02144");
    expect(rec.requests).toHaveLength(1);
  });

  test("company resolution reads the same registry: an EDINET code taught by /financials costs no /organizations request", async () => {
    const { rec, client } = setup();
    await widestFinancials(client, { security_code: "7203" });
    expect(await resolveSecurityCode(client, { edinet_code: "E02144" }, {})).toBe("7203");
    expect(rec.requests).toHaveLength(1);
  });

  test("an organization's single listed code is learned once and shared by EDINET resolution", async () => {
    const { rec, client } = setup();
    expect(await resolveSecurityCode(client, { edinet_code: "E01777" }, {})).toBe("6758");
    expect(await resolveSecurityCode(client, { edinet_code: "E01777" }, {})).toBe("6758");
    expect(await resolveEdinetCode(client, "6758")).toBe("E01777");
    expect(rec.requests.map((r) => new URL(r.url).pathname)).toEqual(["/v1/organizations/E01777"]);
  });

  test("Forget key drops the key's pairs", async () => {
    const { client } = setup();
    await widestFinancials(client, { security_code: "7203" });
    await client.forgetKey();
    expect(client.knownCode("edinet_code", "7203")).toBeUndefined();
  });
});
