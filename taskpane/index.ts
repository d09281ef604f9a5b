// Task pane entry (tiny on purpose): the shared runtime loads this page with the functions at startup,
// often hidden; React and Fluent (taskpane/pane-main.tsx) are fetched and evaluated only when the pane
// is shown, so the functions register without waiting for the UI (issue: runtime page <= 60 KB gzip).


/** Office.js missing entirely (page opened as a file): carry on without it. */
function officeReady(): Promise<unknown> {
  return typeof Office !== "undefined" && typeof Office.onReady === "function"
    ? Office.onReady()
    : Promise.resolve({ host: null });
}

interface AddinVisibility {
  onVisibilityModeChanged?: (
    handler: (args: { visibilityMode: string }) => void,
  ) => Promise<unknown>;
}

/**
 * Resolves when the pane is on screen: the page is visible now, becomes visible, or Office reports
 * the task pane visibility mode (SharedRuntime 1.1: Office.addin.onVisibilityModeChanged, for hosts
 * whose hidden runtime page still reports itself visible or never fires visibilitychange).
 */
export function whenPaneShown(doc: Document = document): Promise<void> {
  return new Promise((resolve) => {
    if (doc.visibilityState !== "hidden") return resolve();
    const onChange = () => {
      if (doc.visibilityState === "hidden") return;
      doc.removeEventListener("visibilitychange", onChange);
      resolve();
    };
    doc.addEventListener("visibilitychange", onChange);
    try {
      const addin = (globalThis as { Office?: { addin?: AddinVisibility } }).Office?.addin;
      void addin
        ?.onVisibilityModeChanged?.((args) => {
          if (args.visibilityMode === "Taskpane") resolve();
        })
        ?.catch(() => undefined);
    } catch {
      // not in Office, or an older host: visibilitychange is enough
    }
  });
}

function showFailure(err: unknown): void {
  // Last resort: say something rather than leave an empty pane (no key is ever in this text).
  const root = document.getElementById("root");
  if (root) root.textContent = `Kaisha: ${err instanceof Error ? err.message : String(err)}`;
}

async function main(): Promise<void> {
  await officeReady();
  // The daily budget is not applied here: the session gives it to the client when it creates it
  // (src/session.ts), before any background request, where this would come after officeReady.
  // Pane shown or not: the workbook's open (Windows and Mac call no custom function at open),
  // recalculation of revalidated cells and the sheet on screen first, in a chunk of their own
  // (taskpane/open/start.ts, which does nothing without Excel) so the runtime page stays small.
  void import(/* webpackChunkName: "open" */ "./open/start")
    .then((m) => m.startWorkbook())
    .catch(() => undefined);
  await whenPaneShown();
  // A separate chunk (webpack): React, Fluent and the pane's code, evaluated only from here.
  const { renderPane } = await import(/* webpackChunkName: "pane" */ "./pane-main");
  await renderPane();
}

main().catch(showFailure);
