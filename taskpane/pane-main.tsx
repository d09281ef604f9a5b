// The pane's UI (React + Fluent): loaded by taskpane/index.ts only when the pane is shown, starts the
// session and renders. Office.onReady has resolved before this module is imported.

import { createRoot } from "react-dom/client";
import { App } from "./app";
import { LANG_STORAGE_KEY, resolveLanguage, type LangSetting } from "./i18n/language";
import { isExcelAvailable } from "./excel/run";
import { DEMO_KEY, URL_PRESETS, startPaneSession } from "./pane-session";
import { DEFAULT_BASE_URL } from "../src/session";
import { baseUrlOf } from "./state/pane-settings";
import { applyDemoKeyOnSandbox } from "./state/demo-start";

function officeLanguage(): string | null {
  try {
    return typeof Office !== "undefined" ? (Office.context?.displayLanguage ?? null) : null;
  } catch {
    return null; // Office.context is not set up outside Office
  }
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Renders the pane into #root (called once, by the bootstrap in index.ts). */
export async function renderPane(): Promise<void> {
  const query = new URLSearchParams(window.location.search);
  const saved = storage()?.getItem(LANG_STORAGE_KEY) ?? null;
  const inputs = {
    query: query.get("lang"),
    office: officeLanguage(),
    browser: navigator.language,
  };
  const initialSetting: LangSetting = saved === "ja" || saved === "en" ? saved : "auto";
  const lang = resolveLanguage({
    ...inputs,
    saved: initialSetting === "auto" ? null : initialSetting,
  });
  const session = await startPaneSession({ query, lang });
  // npm start: open connected to the sandbox with its demo key, never another server (README
  // "The sandbox and its demo key").
  await applyDemoKeyOnSandbox(session, {
    demoKey: DEMO_KEY,
    sandboxBaseUrl: DEFAULT_BASE_URL,
    baseUrl: baseUrlOf(session.settings, URL_PRESETS),
  }).catch(() => false);
  const root = document.getElementById("root");
  if (!root) throw new Error("#root missing in taskpane.html");
  createRoot(root).render(
    <App
      session={session}
      excel={isExcelAvailable()}
      languageInputs={inputs}
      initialSetting={initialSetting}
      storage={storage()}
    />,
  );
}
