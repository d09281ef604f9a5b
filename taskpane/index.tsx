// Task pane entry: waits for Office.onReady (host may be null in a plain browser), starts the session, renders.

import { createRoot } from "react-dom/client";
import { App } from "./app";
import { LANG_STORAGE_KEY, type LangSetting } from "./i18n/language";
import { isExcelAvailable } from "./excel/run";
import { DEMO_KEY, URL_PRESETS, startPaneSession } from "./pane-session";
import { DEFAULT_BASE_URL } from "../src/session";
import { baseUrlOf } from "./state/pane-settings";
import { applyDemoKeyOnSandbox } from "./state/demo-start";

function officeReady(): Promise<unknown> {
  // Office.js missing entirely (opened as a file): render anyway.
  return typeof Office !== "undefined" && typeof Office.onReady === "function"
    ? Office.onReady()
    : Promise.resolve({ host: null });
}

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

async function main(): Promise<void> {
  await officeReady();
  const query = new URLSearchParams(window.location.search);
  const saved = storage()?.getItem(LANG_STORAGE_KEY) ?? null;
  const inputs = {
    query: query.get("lang"),
    office: officeLanguage(),
    browser: navigator.language,
  };
  const session = await startPaneSession({ query });
  // npm start: open connected to the sandbox with its demo key (issue 12), never another server.
  await applyDemoKeyOnSandbox(session, {
    demoKey: DEMO_KEY,
    sandboxBaseUrl: DEFAULT_BASE_URL,
    baseUrl: baseUrlOf(session.settings, URL_PRESETS),
  }).catch(() => false);
  const root = document.getElementById("root");
  if (!root) throw new Error("#root missing in taskpane.html");
  const initialSetting: LangSetting = saved === "ja" || saved === "en" ? saved : "auto";
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

main().catch((err: unknown) => {
  // Last resort: say something rather than leave an empty pane (no key is ever in this text).
  const root = document.getElementById("root");
  if (root) root.textContent = `Kaisha: ${err instanceof Error ? err.message : String(err)}`;
});
