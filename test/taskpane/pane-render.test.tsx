// The pane's sections rendered (server-side, no browser): test ids from TESTIDS.md and both languages.

import { renderToString as renderHtml } from "react-dom/server";
import { SSRProvider } from "@fluentui/react-components";
import type { ReactElement } from "react";
import { App } from "../../taskpane/app";
import type { PaneSession } from "../../taskpane/pane-session";
import type { Lang } from "../../taskpane/i18n/language";
import type { PaneClient } from "../../taskpane/state/pane-client";
import { ConnectionSection } from "../../taskpane/components/connection-section";
import { ImportSection } from "../../taskpane/components/import-section";
import { RefreshSection } from "../../taskpane/components/refresh-section";
import { BuilderSection } from "../../taskpane/components/builder-section";
import { builderCatalogue } from "../../taskpane/state/function-catalogue";
import { CompanySection } from "../../taskpane/components/company-section";
import { ScreeningSection } from "../../taskpane/components/screening-section";
import { createAddinCacheStore } from "../../functions/addin-cache";
import { renderInPane, sessionOver } from "./render-in-pane";
import { IDBFactory } from "fake-indexeddb";

/** Server rendering as Fluent asks for it (SSRProvider: ids stable between server and client). */
const renderToString = (node: ReactElement): string =>
  renderHtml(<SSRProvider>{node}</SSRProvider>);

/** A client that answers the Usage panel's counters and leaves the metric catalogue pending. */
const fakeClient = {
  stats: () => ({ requestsSent: 3, cacheHits: 7, coalesced: 2, lastUsageRemaining: 4990 }),
  screeningFields: () => new Promise(() => undefined),
} as unknown as PaneClient;

function fakeSession(): PaneSession {
  return sessionOver(fakeClient);
}

function render(node: ReactElement, lang: Lang, excel = true): string {
  return renderInPane(node, fakeClient, lang, excel);
}

function testIds(html: string): string[] {
  return [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1] ?? "");
}

test("the shell: language override, status, six section tabs, Japanese from ?lang=ja", () => {
  const html = renderToString(
    <App
      session={fakeSession()}
      excel={false}
      languageInputs={{ query: "ja" }}
      initialSetting="auto"
    />,
  );
  expect(testIds(html)).toEqual(
    expect.arrayContaining([
      "app-root",
      "lang-override",
      "connection-status",
      "excel-unavailable",
      "nav-connection",
      "nav-screening",
      "nav-import",
      "nav-refresh",
      "nav-builder",
      "nav-company",
      "section-connection",
    ]),
  );
  expect(html).toContain('data-lang="ja"');
  expect(html).toContain("APIキー未設定");
});

test("English when ?lang=en", () => {
  const html = renderToString(
    <App
      session={fakeSession()}
      excel
      languageInputs={{ query: "en", office: "ja-JP" }}
      initialSetting="auto"
    />,
  );
  expect(html).toContain('data-lang="en"');
  expect(html).toContain("No API key");
  expect(testIds(html)).not.toContain("excel-unavailable");
});

test("connection: masked key input, shape hint, verify / save / forget / remember, Japanese labels", () => {
  const html = render(<ConnectionSection />, "ja");
  expect(testIds(html)).toEqual(
    expect.arrayContaining([
      "conn-base-url-preset",
      "conn-mode-direct",
      "conn-mode-relay",
      "conn-header-language",
      "key-input",
      "key-toggle-visibility",
      "key-shape-hint",
      "key-remember",
      "key-save",
      "key-verify",
      "key-forget",
    ]),
  );
  expect(html).toMatch(
    /type="password"[^>]*data-testid="key-input"|data-testid="key-input"[^>]*type="password"/,
  );
  for (const text of ["APIキー", "接続を確認", "この端末に保存", "キーを削除"])
    expect(html).toContain(text);
});

test("screening starts by loading the metric catalogue", () => {
  const html = render(<ScreeningSection />, "ja");
  expect(testIds(html)).toContain("screen-fields-loading");
  expect(html).toContain("指標を読み込んでいます");
});

test("imports: dataset select with every dataset, financials parameters, run disabled without Excel", () => {
  const html = render(<ImportSection />, "ja", false);
  expect(testIds(html)).toEqual(
    expect.arrayContaining([
      "import-dataset-select",
      "import-param-security_code",
      "import-param-period",
      "import-param-years",
      "import-param-as_of",
      "import-param-unit",
      "import-run",
    ]),
  );
  for (const d of [
    "financials",
    "valuations",
    "prices",
    "dividends",
    "segments",
    "disclosures",
    "officers",
    "peers",
    "margin",
    "jsf",
    "securities",
    "rankings",
  ]) {
    expect(html).toContain(`value="${d}"`);
  }
  expect(html).toMatch(
    /<button[^>]*disabled[^>]*data-testid="import-run"|data-testid="import-run"[^>]*disabled/,
  );
  expect(html).toContain("表として取り込む");
});

test("refresh: refresh all, freeze / restore, problems, usage counters from the client's stats", () => {
  const html = render(<RefreshSection />, "en");
  expect(testIds(html)).toEqual(
    expect.arrayContaining([
      "refresh-all",
      "refresh-imports",
      "freeze-scope",
      "freeze-values",
      "restore-formulas",
      "problems-scan",
      "problems-retry",
      "problems-list",
      "usage-panel",
      "usage-requests",
      "usage-cache-hits",
      "usage-coalesced",
      "usage-panel-remaining",
      "usage-refresh-cost",
      "usage-reload",
    ]),
  );
  expect(html).toMatch(/data-testid="usage-requests"[^>]*>3</);
  expect(html).toMatch(/data-testid="usage-cache-hits"[^>]*>7</);
  expect(html).toMatch(/data-testid="usage-panel-remaining"[^>]*>4990</);
});

test("usage: where answers are saved, and why a host without IndexedDB keeps them for the session only", () => {
  createAddinCacheStore({ indexedDb: undefined, compression: true });
  const en = render(<RefreshSection />, "en");
  expect(en).toMatch(/data-testid="usage-storage" data-kind="memory"/);
  expect(en).toContain("This session only: this Office host gives add-ins no IndexedDB.");
  createAddinCacheStore({ indexedDb: new IDBFactory(), compression: false });
  const ja = render(<RefreshSection />, "ja");
  expect(ja).toContain("このセッションのみ：この Office では回答を圧縮できません");
  createAddinCacheStore({ indexedDb: new IDBFactory(), compression: true });
  expect(render(<RefreshSection />, "en")).toContain("Opening this computer&#x27;s cache…");
});

test("builder and company sheet", () => {
  // The catalogue normally comes from functions.json next to the page (function-catalogue.test.ts).
  const catalogue = builderCatalogue(
    [
      {
        id: "FINANCIAL",
        name: "FINANCIAL",
        description: "One financial value.",
        parameters: [
          { name: "company", description: "Security code." },
          { name: "item", description: "Item key." },
          {
            name: "period",
            description: "annual (default), quarterly, semiannual or LTM.",
            optional: true,
            customEnumId: "ValuePeriod",
          },
        ],
      },
    ],
    [
      {
        id: "FINANCIAL",
        name: "FINANCIAL",
        description: "財務数値を1つ返します。",
        parameters: [
          { name: "company", description: "証券コード。" },
          { name: "item", description: "項目キー。" },
          { name: "period", description: "annual（通期）など。", optional: true },
        ],
      },
    ],
    [
      {
        id: "ValuePeriod",
        type: "string",
        values: ["annual", "quarterly", "semiannual", "LTM"].map((v) => ({
          name: v,
          stringValue: v,
        })),
      },
    ],
  );
  expect(testIds(render(<BuilderSection />, "ja"))).toContain("builder-loading");
  const builder = render(<BuilderSection catalogue={catalogue} />, "ja");
  expect(testIds(builder)).toEqual(
    expect.arrayContaining([
      "builder-function-select",
      "builder-description",
      "builder-arg-company",
      "builder-arg-item",
      "builder-formula-preview",
      "builder-insert",
    ]),
  );
  expect(builder).toContain("=KAISHA.FINANCIAL()");
  // Parameters by their Japanese names and descriptions; list values by their Japanese names.
  expect(builder).toContain("企業");
  expect(builder).toContain("財務数値を1つ返します。");
  expect(builder).toContain("直近12か月（LTM）");
  expect(builder).not.toContain("[sales]");
  const company = render(<CompanySection />, "ja");
  expect(testIds(company)).toEqual(
    expect.arrayContaining(["company-sheet-code", "company-sheet-years", "company-sheet-build"]),
  );
  expect(company).toContain("企業シートを作成");
});
