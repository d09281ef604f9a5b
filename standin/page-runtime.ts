// The add-in's runtime on a stand-in page: the page's own scripts (functions.js, taskpane.js) held
// back until the runtime starts, and whether the task pane is shown (document.visibilityState),
// for a saved workbook opened on a host that starts neither by itself (STANDIN.md "Host model").

/** The runtime of one page. */
export interface PageRuntime {
  started(): boolean;
  /** Runs the held scripts (nothing when started). */
  start(): void;
  /** The pane is on screen: the page becomes visible (visibilitychange). */
  showPane(): void;
}

/** Office.js is the host's library, loaded on every page; the add-in's own scripts are held. */
function isHostScript(script: HTMLScriptElement): boolean {
  return /\/office-js\//.test(script.src);
}

/**
 * Holds the page's scripts back (`hold`) and hides the pane (`hidePane`) in `doc`, the page's
 * document, before its scripts run; without a document (a unit test in Node) only the state is
 * kept.
 */
export function pageRuntime(
  doc: Document | undefined,
  options: { hold: boolean; hidePane: boolean },
): PageRuntime {
  let started = !options.hold;
  const held: HTMLScriptElement[] = [];
  let observer: MutationObserver | undefined;
  if (doc && options.hold) {
    // The parser runs a microtask checkpoint before it prepares a script it has inserted, so a
    // script whose type is changed here is never run (HTML: "prepare the script element").
    observer = new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof HTMLScriptElement) || !node.src || isHostScript(node)) continue;
          node.type = "javascript/blocked";
          held.push(node);
        }
    });
    observer.observe(doc, { childList: true, subtree: true });
  }
  let visible = !options.hidePane;
  if (doc && options.hidePane) {
    Object.defineProperty(doc, "visibilityState", {
      configurable: true,
      get: () => (visible ? "visible" : "hidden"),
    });
    Object.defineProperty(doc, "hidden", { configurable: true, get: () => !visible });
  }
  return {
    started: () => started,
    start() {
      if (started) return;
      started = true;
      observer?.disconnect();
      if (!doc) return;
      // In their order, as the page listed them (async false keeps it for inserted scripts).
      for (const old of held) {
        const script = doc.createElement("script");
        script.src = old.src;
        script.async = false;
        (doc.head ?? doc.documentElement).appendChild(script);
      }
    },
    showPane() {
      if (visible) return;
      visible = true;
      doc?.dispatchEvent(new Event("visibilitychange"));
    },
  };
}
