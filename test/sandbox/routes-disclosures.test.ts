// Disclosure endpoints: the security list, documents and sections, and the 24-hour rule
// (openapi.json info.description).
import { getDataset } from "../../sandbox/data";
import { get, makeSandbox, reasons, warmDataset } from "./helpers";

warmDataset();
const sandbox = makeSandbox();

/** The newest timely disclosure of 7203 and its disclosure time. */
function latestTimely(): { docId: string; at: number } {
  const record = getDataset().disclosures.find(
    (d) => d.security_code === "7203" && d.item.source === "tdnet",
  );
  if (record === undefined) throw new Error("no timely disclosure for 7203");
  return { docId: record.item.doc_id, at: Date.parse(record.meta.disclosed_at) };
}

describe("GET /securities/{code}/disclosures (openapi.json listSecurityDisclosures)", () => {
  test("newest disclosure time first, with security_code and resolved edinet_code", async () => {
    const answer = await get(sandbox, "/v1/securities/7203/disclosures");
    expect(answer.status).toBe(200);
    expect(answer.body.security_code).toBe("7203");
    expect(answer.body.edinet_code).toMatch(/^E\d{5}$/);
    expect(answer.body.disclosures).toHaveLength(50);
    const times = answer.body.disclosures.map((d: { disclosed_at: string }) =>
      Date.parse(d.disclosed_at),
    );
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  test("document_type is a prefix match and keeps statutory documents only", async () => {
    const answer = await get(
      sandbox,
      `/v1/securities/7203/disclosures?document_type=${encodeURIComponent("有価証券")}`,
    );
    expect(answer.body.disclosures.length).toBeGreaterThan(0);
    for (const d of answer.body.disclosures as { source: string; document_type: string }[]) {
      expect(d.source).toBe("edinet");
      expect(d.document_type.startsWith("有価証券")).toBe(true);
    }
  });

  test("from/to bound the JST disclosure date inclusively", async () => {
    const answer = await get(
      sandbox,
      "/v1/securities/7203/disclosures?from=2026-01-01&to=2026-06-30&limit=100",
    );
    for (const d of answer.body.disclosures as { disclosed_at: string }[]) {
      const jst = new Date(Date.parse(d.disclosed_at) + 9 * 3600_000).toISOString().slice(0, 10);
      expect(jst >= "2026-01-01" && jst <= "2026-06-30").toBe(true);
    }
  });

  test("cursor pages without overlap; it must be used with the same code/from/to/document_type/limit", async () => {
    const first = await get(sandbox, "/v1/securities/7203/disclosures?limit=5");
    const second = await get(
      sandbox,
      `/v1/securities/7203/disclosures?limit=5&cursor=${first.body.next_cursor}`,
    );
    const ids = [...first.body.disclosures, ...second.body.disclosures].map(
      (d: { doc_id: string }) => d.doc_id,
    );
    expect(new Set(ids).size).toBe(10);
    const changed = await get(
      sandbox,
      `/v1/securities/7203/disclosures?limit=6&cursor=${first.body.next_cursor}`,
    );
    expect(reasons(changed)).toEqual(["cursor:invalid"]);
  });

  test.each([
    ["an ETF without statutory filer", "1306"],
    ["a non-primary share class", "2594"],
    ["an unknown security", "0000"],
  ])("%s -> 404", async (_name, code) => {
    expect((await get(sandbox, `/v1/securities/${code}/disclosures`)).status).toBe(404);
  });

  test("24-hour rule: a timely disclosure is listed only from 24 hours after disclosure", async () => {
    const { docId, at } = latestTimely();
    const clock = makeSandbox();
    const listed = async (): Promise<boolean> =>
      (await get(clock, "/v1/securities/7203/disclosures?limit=100")).body.disclosures.some(
        (d: { doc_id: string }) => d.doc_id === docId,
      );
    clock.setNow(new Date(at + 24 * 3600_000 - 1).toISOString());
    expect(await listed()).toBe(false);
    clock.setNow(new Date(at + 24 * 3600_000).toISOString());
    expect(await listed()).toBe(true);
  });
});

describe("GET /disclosures/{doc_id} and sections (getDisclosure, getDisclosureSection)", () => {
  const statutory = (): string =>
    getDataset().disclosures.find(
      (d) => d.security_code === "7203" && d.item.document_type === "有価証券報告書",
    )?.item.doc_id ?? "";

  test("all groups by default; include selects groups", async () => {
    const all = await get(sandbox, `/v1/disclosures/${statutory()}`);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual([
      "attribution",
      "available_sections",
      "meta",
      "sections",
      "xbrl_facts",
    ]);
    expect(all.body.meta.doc_id).toBe(statutory());
    const some = await get(
      sandbox,
      `/v1/disclosures/${statutory()}?include=meta,available_sections`,
    );
    expect(Object.keys(some.body).sort()).toEqual(["attribution", "available_sections", "meta"]);
    expect(some.body.available_sections).toContain("business_overview");
  });

  test("section: text and name of a present section", async () => {
    const answer = await get(sandbox, `/v1/disclosures/${statutory()}/sections/risk_factors`);
    expect(answer.status).toBe(200);
    expect(typeof answer.body.section_text).toBe("string");
    expect(answer.body.section_name).not.toBe("");
    expect(answer.body.document_type).toBe("有価証券報告書");
    expect(answer.body.available_sections).toContain("risk_factors");
  });

  test("an absent section -> 200 with null text, empty name and the candidates", async () => {
    const doc = getDataset().disclosures.find(
      (d) => d.security_code === "7203" && d.item.document_type === "臨時報告書",
    );
    const answer = await get(sandbox, `/v1/disclosures/${doc?.item.doc_id}/sections/mda`);
    expect(answer.status).toBe(200);
    expect(answer.body.section_text).toBeNull();
    expect(answer.body.section_name).toBe("");
    expect(answer.body.available_sections).toEqual(["body"]);
  });

  test("24-hour rule: a timely document under 24 hours old -> 404 on detail and section, then 200", async () => {
    const { docId, at } = latestTimely();
    const clock = makeSandbox();
    clock.setNow(new Date(at + 23 * 3600_000).toISOString());
    expect((await get(clock, `/v1/disclosures/${docId}`)).status).toBe(404);
    expect((await get(clock, `/v1/disclosures/${docId}/sections/body`)).status).toBe(404);
    clock.setNow(new Date(at + 24 * 3600_000).toISOString());
    const detail = await get(clock, `/v1/disclosures/${docId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.meta.source).toBe("tdnet");
    expect((await get(clock, `/v1/disclosures/${docId}/sections/body`)).status).toBe(200);
  });

  test("unknown document -> 404", async () => {
    expect((await get(sandbox, "/v1/disclosures/S0000000")).status).toBe(404);
    expect((await get(sandbox, "/v1/disclosures/20000101000000")).status).toBe(404);
  });
});
