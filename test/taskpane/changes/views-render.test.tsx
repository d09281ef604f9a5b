// The Changes and Why views in both languages: the workbook's stored log read back after a reopen
// (a restatement first, called out, with its 訂正), the Why view's start, and a trace's company,
// XBRL fact (or the button that reads it) and LTM-estimate warning.
import ChangesSection from "../../../taskpane/changes/changes-section";
import WhySection, { TraceView } from "../../../taskpane/trace/why-section";
import type { CellTrace } from "../../../taskpane/trace/trace-model";
import { translator } from "../../../taskpane/i18n/messages";
import { appendLog } from "../../../taskpane/changes/change-log";
import type { PaneClient } from "../../../taskpane/state/pane-client";
import { renderInPane } from "../render-in-pane";

const data = new Map<string, string>();
const storage = {
  getItem: (k: string) => data.get(k) ?? null,
  setItem: (k: string, v: string) => void data.set(k, v),
  removeItem: (k: string) => void data.delete(k),
};
const hadWindow = "window" in globalThis;

beforeAll(() => {
  // The views keep their log in the page's localStorage (taskpane/changes/change-log.ts).
  if (!hadWindow) (globalThis as { window?: unknown }).window = { localStorage: storage };
  appendLog(storage, "workbook", {
    id: "u1",
    at: Date.UTC(2026, 10, 14),
    trigger: "refresh",
    more: 0,
    groups: [
      {
        kind: "restatement",
        company: "4452",
        label: "2025/12",
        filing: {
          doc_id: "20261112504319",
          title: "（訂正）決算短信",
          date: "2026-11-12",
          correction: true,
        },
        cells: [{ sheet: "Sheet1", address: "A5", item: "売上高", old: 100, new: 102, pct: 2 }],
      },
      {
        kind: "new_price_day",
        company: "7203",
        label: "2026-11-13",
        cells: [{ sheet: "Sheet1", address: "A3", old: 2845.5, new: 2851 }],
      },
    ],
  });
});

afterAll(() => {
  if (!hadWindow) delete (globalThis as { window?: unknown }).window;
});

const client = {} as PaneClient;

test.each([
  [
    "ja",
    "2025/12 の訂正（修正再表示）",
    "すべて更新：2 セルが変わりました",
    "新しい取引日：2026-11-13",
  ],
  [
    "en",
    "Restatement (訂正) of 2025/12",
    "Refresh all: 2 cells changed",
    "New price day: 2026-11-13",
  ],
] as const)(
  "Changes in %s: the stored log, the restatement first with its warning and 訂正",
  (lang, kind, update, day) => {
    const html = renderInPane(<ChangesSection />, client, lang);
    expect(html).toContain(kind);
    expect(html).toContain(update);
    expect(html).toContain(day);
    expect(html.indexOf(kind)).toBeLessThan(html.indexOf(day));
    expect(html).toContain('data-testid="changes-restatement"');
    expect(html).toContain("（訂正）決算短信");
    expect(html).toContain('data-address="Sheet1!A5"');
    expect(html).toContain("100 → 102 (+2.0%)");
  },
);

test.each([
  ["ja", "選択したセルを説明"],
  ["en", "Explain the selected cell"],
] as const)("Why in %s: the explain button, keyboard-reachable as a button", (lang, label) => {
  const html = renderInPane(<WhySection />, client, lang);
  expect(html).toMatch(new RegExp(`<button[^>]*data-testid="why-explain"[^>]*>${label}</button>`));
});

/** A traced FINANCIALS cell of a company given by name, its XBRL fact held, an LTM-estimate year. */
const trace: CellTrace = {
  address: "Sheet1!D3",
  anchor: "Sheet1!C1",
  formula: '=KAISHA.FINANCIALS("日の出製粉","sales")',
  fn: "FINANCIALS",
  company: { code: "2002", edinet: "E00002", name: "日の出製粉（サンプル）" },
  item: { key: "sales", label: "売上高", unit: "jpy" },
  period: { label: "2015年3月期", fiscal_year: "2015/03" },
  moneyUnit: "jpy",
  apiValue: 90_000_000_000,
  shown: "90,000,000,000",
  qualifiers: [{ code: "ltm_estimate", previous: "2014/12", months: 3 }],
  xbrl: {
    state: "held",
    doc_id: "S100AAAA",
    title: "有価証券報告書",
    facts: [
      {
        element_name: "jpcrp_cor:NetSalesSummaryOfBusinessResults",
        context: "CurrentYearDuration",
        value: 90_000_000_000,
        unit: "JPY",
      },
    ],
  },
};

test.each([
  ["ja", "日の出製粉（サンプル） · 2002 · E00002", "12か月の実績ではありません", "値により照合"],
  [
    "en",
    "日の出製粉（サンプル） · 2002 · E00002",
    "Not a real 12-month result",
    "Matched by value",
  ],
] as const)(
  "a trace in %s: the company's name and codes, the XBRL fact, the LTM-estimate warning",
  (lang, company, estimate, byValue) => {
    const html = renderInPane(
      <TraceView trace={trace} t={translator(lang)} onAskXbrl={() => undefined} />,
      client,
      lang,
    );
    expect(html).toContain(company);
    expect(html).toContain('data-element="jpcrp_cor:NetSalesSummaryOfBusinessResults"');
    expect(html).toContain(estimate);
    expect(html).toContain(byValue);
  },
);

test.each([
  ["ja", "XBRL 要素を読み込む（1 リクエスト）"],
  ["en", "Read the XBRL facts (1 request)"],
] as const)(
  "a trace in %s whose filing's facts are not in memory: a button stating the request's cost",
  (lang, label) => {
    const askable: CellTrace = {
      ...trace,
      xbrl: { state: "askable", doc_id: "S100AAAA", title: "有価証券報告書" },
    };
    const html = renderInPane(
      <TraceView trace={askable} t={translator(lang)} onAskXbrl={() => undefined} />,
      client,
      lang,
    );
    expect(html).toMatch(
      new RegExp(
        `<button[^>]*data-testid="why-xbrl-ask"[^>]*>${label.replace(/[()（）]/g, ".")}</button>`,
      ),
    );
    expect(html).not.toContain('data-testid="why-xbrl-fact"');
  },
);
