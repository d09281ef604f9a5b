// The Office side of a document in the stand-in: Office.context.document.settings (kept in the
// saved workbook once saveAsync ran), Office.addin's startup behaviour (per document), the host's
// platform, and whether the task pane is shown (STANDIN.md "Host calculation model").
import type { DocumentState, StartupBehavior } from "./workbook-snapshot";

type Callback = (result: { status: "succeeded" | "failed"; value?: unknown }) => void;

/** The Office parts the stand-in provides for one open document. */
export interface OfficeDocument {
  /** What a save keeps: the settings last saved with saveAsync and the startup behaviour. */
  state(): DocumentState;
  /** Office.context.platform ("PC" on the desktop, "OfficeOnline" on the web). */
  platform: "PC" | "OfficeOnline";
  /** Office.context.document. */
  document: {
    url: string;
    settings: {
      get(name: string): unknown;
      set(name: string, value: unknown): void;
      remove(name: string): void;
      saveAsync(options?: unknown, callback?: Callback): void;
    };
  };
  /** Office.addin. */
  addin: {
    setStartupBehavior(behavior: unknown): Promise<void>;
    getStartupBehavior(): Promise<StartupBehavior>;
    onVisibilityModeChanged(
      handler: (args: { visibilityMode: string }) => void,
    ): Promise<() => Promise<void>>;
    showAsTaskpane(): Promise<void>;
    hide(): Promise<void>;
  };
  /** The pane is shown: Office.addin's visibility handlers hear "Taskpane". */
  showPane(): void;
}

/**
 * A document's Office parts, from what it was saved with (a new workbook: no settings, startup
 * behaviour None).
 */
export function officeDocument(
  host: "desktop" | "web",
  saved: DocumentState | undefined,
): OfficeDocument {
  // The settings as the add-in sees them (set without saveAsync: this session only) and as saved.
  const live = new Map<string, unknown>(Object.entries(saved?.settings ?? {}));
  let persisted: Record<string, unknown> = { ...saved?.settings };
  let startup: StartupBehavior = saved?.startupBehavior ?? "None";
  const visibilityHandlers: ((args: { visibilityMode: string }) => void)[] = [];
  const copy = (v: unknown): unknown =>
    v === undefined ? undefined : JSON.parse(JSON.stringify(v));
  return {
    state: () => ({ settings: { ...persisted }, startupBehavior: startup }),
    platform: host === "web" ? "OfficeOnline" : "PC",
    document: {
      url: "",
      settings: {
        get: (name) => copy(live.get(name)) ?? null,
        set: (name, value) => void live.set(name, copy(value)),
        remove: (name) => void live.delete(name),
        // Microsoft, Office.Settings: "The developer is responsible for calling the saveAsync
        // method after adding or deleting settings to save the settings in the document"; what
        // was only set is lost when the document closes.
        saveAsync(options, callback) {
          persisted = Object.fromEntries([...live].map(([key, v]) => [key, copy(v)]));
          const done = typeof options === "function" ? (options as Callback) : callback;
          setTimeout(() => done?.({ status: "succeeded" }), 0);
        },
      },
    },
    addin: {
      // Microsoft, "Run code in your Office Add-in when the document opens": the behaviour is the
      // document's (it must be set in each document) and asynchronous.
      async setStartupBehavior(behavior) {
        startup = behavior === "Load" ? "Load" : "None";
      },
      async getStartupBehavior() {
        return startup;
      },
      async onVisibilityModeChanged(handler) {
        visibilityHandlers.push(handler);
        return async () => {
          const at = visibilityHandlers.indexOf(handler);
          if (at >= 0) visibilityHandlers.splice(at, 1);
        };
      },
      async showAsTaskpane() {},
      async hide() {},
    },
    showPane() {
      for (const handler of [...visibilityHandlers]) handler({ visibilityMode: "Taskpane" });
    },
  };
}
