// The task pane: language, connection status, section tabs, and recalculation when the session changes.

import { useEffect, useMemo, useState } from "react";
import {
  FluentProvider,
  MessageBar,
  MessageBarBody,
  Select,
  Text,
  webLightTheme,
} from "@fluentui/react-components";
import { translator } from "./i18n/messages";
import { LANG_STORAGE_KEY, resolveLanguage, type LangSetting } from "./i18n/language";
import {
  PaneContext,
  SectionShown,
  type ConnectionState,
  type PaneContextValue,
} from "./pane-context";
import type { PaneSession } from "./pane-session";
import { recalculateAll } from "./excel/formulas";
import { recalcOnSessionChange } from "./recalc-on-change";
import { ConnectionSection } from "./components/connection-section";
import { ScreeningSection } from "./components/screening-section";
import { ImportSection } from "./components/import-section";
import { RefreshSection } from "./components/refresh-section";
import { BuilderSection } from "./components/builder-section";
import { CompanySection } from "./components/company-section";
import { SectionTabs } from "./components/section-tabs";
import { QueueView } from "./components/queue-view";
import { RevalidationView } from "./components/revalidation-view";
import { OpenPanel } from "./open/open-panel";
import { HelpLink } from "./components/help-link";
// Why this number and Changes load with the pane's own chunk: a chunk of their own would add an
// entry to the runtime page's chunk map, which counts in its gzip budget (test/e2e/build.test.ts).
import WhySection from "./trace/why-section";
import ChangesSection from "./changes/changes-section";

export type SectionId =
  "connection" | "screening" | "import" | "refresh" | "builder" | "company" | "why" | "changes";
const SECTIONS: readonly SectionId[] = [
  "connection",
  "screening",
  "import",
  "refresh",
  "builder",
  "company",
  "why",
  "changes",
];
const NAV_KEY = {
  connection: "navConnection",
  screening: "navScreening",
  import: "navImport",
  refresh: "navRefresh",
  builder: "navBuilder",
  company: "navCompany",
  why: "navWhy",
  changes: "navChanges",
} as const;
const NAV_SHORT_KEY = {
  connection: "navShortConnection",
  screening: "navShortScreening",
  import: "navShortImport",
  refresh: "navShortRefresh",
  builder: "navShortBuilder",
  company: "navShortCompany",
  why: "navShortWhy",
  changes: "navShortChanges",
} as const;

export interface AppProps {
  session: PaneSession;
  excel: boolean;
  /** inputs of the language choice other than the saved override. */
  languageInputs: { query?: string | null; office?: string | null; browser?: string | null };
  initialSetting: LangSetting;
  storage?: Storage | undefined;
}

export function App(props: AppProps) {
  const { session, excel } = props;
  const [setting, setSetting] = useState<LangSetting>(props.initialSetting);
  const lang = resolveLanguage({
    ...props.languageInputs,
    saved: setting === "auto" ? null : setting,
  });
  const t = useMemo(() => translator(lang), [lang]);
  const [section, setSection] = useState<SectionId>("connection");
  // Sections stay mounted once opened, so a screen being built, an import's progress and Cancel,
  // and the last result survive a look at another tab.
  const [opened, setOpened] = useState<readonly SectionId[]>(["connection"]);
  const [connection, setConnection] = useState<ConnectionState>(
    session.keys.current() ? "unverified" : "none",
  );
  const [revision, setRevision] = useState(0);

  // A remembered key is checked once at start-up: GET /usage costs no daily request (openapi.json
  // bearerAuth).
  useEffect(() => {
    if (!session.keys.current()) return;
    let live = true;
    session
      .client()
      .usage()
      .then(() => live && setConnection((c) => (c === "unverified" ? "ok" : c)))
      .catch(() => live && setConnection((c) => (c === "unverified" ? "error" : c)));
    return () => {
      live = false;
    };
  }, [session]);

  // Screen readers and fonts follow the pane's language.
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  // Saving a key or changing the server recalculates KAISHA formulas
  // (test/taskpane/recalc-on-change.test.ts).
  useEffect(
    () => (excel ? recalcOnSessionChange(session.onChange, recalculateAll) : undefined),
    [session, excel],
  );

  const changeLanguage = (value: LangSetting) => {
    setSetting(value);
    if (value === "auto") props.storage?.removeItem(LANG_STORAGE_KEY);
    else props.storage?.setItem(LANG_STORAGE_KEY, value);
  };

  const context: PaneContextValue = {
    t,
    session,
    excel,
    connection,
    setConnection,
    revision,
    bump: () => setRevision((r) => r + 1),
  };
  const statusText = {
    none: t("statusNone"),
    unverified: t("statusUnverified"),
    ok: t("statusOk"),
    error: t("statusError"),
  }[connection];

  return (
    <FluentProvider theme={webLightTheme} lang={lang}>
      <PaneContext.Provider value={context}>
        <div className="kaisha-app" data-testid="app-root" data-lang={lang} data-ready="true">
          <header className="kaisha-header">
            <Text weight="bold" size={400}>
              {t("appTitle")}
            </Text>
            <span
              role="status"
              aria-live="polite"
              className={`kaisha-status kaisha-status-${connection}`}
              data-testid="connection-status"
              data-state={connection}
            >
              {statusText}
            </span>
            <Select
              size="small"
              aria-label={t("language")}
              data-testid="lang-override"
              value={setting}
              onChange={(_, d) =>
                changeLanguage(d.value === "ja" || d.value === "en" ? d.value : "auto")
              }
            >
              <option value="auto">{t("langAuto")}</option>
              <option value="ja">{t("langJa")}</option>
              <option value="en">{t("langEn")}</option>
            </Select>
            <HelpLink section={section} />
          </header>
          {!excel && (
            <MessageBar intent="info" data-testid="excel-unavailable">
              <MessageBarBody>{t("excelUnavailable")}</MessageBarBody>
            </MessageBar>
          )}
          <SectionTabs
            tabs={SECTIONS.map((id) => ({
              id,
              label: t(NAV_KEY[id]),
              short: t(NAV_SHORT_KEY[id]),
            }))}
            selected={section}
            ariaLabel={t("navLabel")}
            onSelect={(id) => {
              const next = id as SectionId;
              setSection(next);
              setOpened((was) => (was.includes(next) ? was : [...was, next]));
            }}
          />
          <QueueView />
          <RevalidationView />
          {excel && <OpenPanel />}
          <main aria-label={t(NAV_KEY[section])}>
            {SECTIONS.filter((s) => opened.includes(s)).map((s) => (
              <div key={s} data-testid={`section-${s}`} hidden={s !== section}>
                <SectionShown.Provider value={s === section}>
                  {s === "connection" && <ConnectionSection />}
                  {s === "screening" && <ScreeningSection />}
                  {s === "import" && <ImportSection />}
                  {s === "refresh" && <RefreshSection />}
                  {s === "builder" && <BuilderSection />}
                  {s === "company" && <CompanySection />}
                  {s === "why" && <WhySection />}
                  {s === "changes" && <ChangesSection />}
                </SectionShown.Provider>
              </div>
            ))}
          </main>
        </div>
      </PaneContext.Provider>
    </FluentProvider>
  );
}
