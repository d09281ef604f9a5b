// The Changes and Why views in both languages: the workbook's stored log read back after a reopen
// (a restatement first, called out, with its 訂正), and the Why view's start.
import ChangesSection from "../../../taskpane/changes/changes-section";
import WhySection from "../../../taskpane/trace/why-section";
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
