// Sector and industry names come from a lazy chunk: the client fetches it itself before validating, and only when a request names one.

import { createClient } from "../../src/client/client";
import { ValidationError } from "../../src/client/errors";
import { needsIndustryNames, validateParams } from "../../src/client/validate";
import { recordingFetch, reply, TEST_KEY } from "./helpers";

const screeningAnswer = {
  securities: [],
  total_count: 0,
  attribution: { source_label: "s", license_note: "l", processed_by: "p" },
};

test("only screening and the securities list with a sector or industry need the name tables", () => {
  expect(needsIndustryNames("getScreening", { sector: "電力・ガス" })).toBe(true);
  expect(needsIndustryNames("getScreening", { industry: "銀行業" })).toBe(true);
  expect(needsIndustryNames("getScreening", { filters: "per:lt:10" })).toBe(false);
  expect(needsIndustryNames("listSecurities", { industry: "銀行業" })).toBe(true);
  expect(needsIndustryNames("listSecurities", {})).toBe(false);
  expect(needsIndustryNames("getFinancials", { security_code: "7203" })).toBe(false);
  // The name tables are not loaded yet in this file: asking for them is a clear error, not a skip.
  expect(() => validateParams("getScreening", { sector: "自動車" })).toThrow(/not loaded/);
});

test("a client's first screening by sector loads the names, sends official spellings, refuses unknown ones unsent", async () => {
  const rec = recordingFetch(() => reply(200, screeningAnswer));
  const client = createClient({ apiKey: TEST_KEY, fetch: rec.fetch, ratePerMinute: 0 });
  await client.screening({ sector: " 金融(除く銀行)、電力・ガス ", industry: "電気機器" });
  expect(rec.requests).toHaveLength(1);
  const sent = new URL(rec.requests[0]?.url ?? "").searchParams;
  expect(sent.get("sector")).toBe("金融（除く銀行）,電力・ガス");
  expect(sent.get("industry")).toBe("電気機器");
  const err = await client.securities({ industry: "半導体" }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).messageJa).toContain("電気機器");
  expect(rec.requests).toHaveLength(1);
});
