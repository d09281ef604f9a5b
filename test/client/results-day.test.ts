// The expected results day from a company's year-earlier disclosures (src/client/results-day.ts).

import { EARLY_DAYS, dailyChecksFrom, historyQuery } from "../../src/client/results-day";

const DAY = 86_400_000;
/** FY ending March 2026 as a month index (year * 12 + month - 1). */
const MARCH_2026 = 2026 * 12 + 2;

/** A JST midnight ("2026-05-06"). */
const jstMidnight = (day: string) => Date.parse(`${day}T00:00:00+09:00`);

function item(over: Partial<Record<string, string | null>>) {
  return {
    doc_id: "20250512500001",
    source: "tdnet" as const,
    document_type: null,
    title: "2025年3月期 決算短信〔日本基準〕（連結）",
    filing_date: "2025-05-12",
    disclosed_at: "2025-05-12T06:00:00Z",
    source_url: null,
    pdf_url: null,
    ...over,
  };
}

test("the history asked is the three months after the same period ended a year earlier, one page", () => {
  expect(historyQuery("7203", MARCH_2026)).toEqual({
    code: "7203",
    from: "2025-04-01",
    to: "2025-06-30",
    limit: 100,
  });
  // A period ending December 2025: January to March 2025.
  expect(historyQuery("7203", 2025 * 12 + 11)).toMatchObject({
    from: "2025-01-01",
    to: "2025-03-31",
  });
});

test("results on 12 May a year earlier: checked daily from a working week before 12 May", () => {
  const from = dailyChecksFrom({ disclosures: [item({})] }, MARCH_2026);
  expect(from).toBe(jstMidnight("2026-05-12") - EARLY_DAYS * DAY);
});

test("the earliest results document counts; a correction and a notice do not", () => {
  const history = {
    disclosures: [
      item({
        title: "有価証券報告書－第120期",
        source: "edinet",
        document_type: "有価証券報告書",
        filing_date: "2025-06-20",
      }),
      item({ title: "【訂正】2025年3月期 決算短信", filing_date: "2025-05-02" }),
      item({ title: "配当予想の修正に関するお知らせ", filing_date: "2025-04-25" }),
      item({ filing_date: "2025-05-14", disclosed_at: "2025-05-14T06:00:00Z" }),
    ],
  };
  expect(dailyChecksFrom(history, MARCH_2026)).toBe(jstMidnight("2026-05-14") - EARLY_DAYS * DAY);
});

test("without filing_date the disclosure instant's JST day counts", () => {
  const late = item({ filing_date: null, disclosed_at: "2025-05-13T16:00:00Z" }); // 14 May 01:00 JST
  expect(dailyChecksFrom({ disclosures: [late] }, MARCH_2026)).toBe(
    jstMidnight("2026-05-14") - EARLY_DAYS * DAY,
  );
});

test("a history with no results predicts nothing (the company keeps the window's cadence)", () => {
  expect(dailyChecksFrom({ disclosures: [] }, MARCH_2026)).toBeNull();
  const notice = item({ title: "代表取締役の異動に関するお知らせ" });
  expect(dailyChecksFrom({ disclosures: [notice] }, MARCH_2026)).toBeNull();
});
