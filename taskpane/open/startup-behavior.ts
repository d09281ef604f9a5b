// Whether this workbook starts the add-in when it opens (Office.addin.setStartupBehavior), and the analyst's choice kept in the document.
//
// Excel on Windows and Mac calls no custom function at open and starts the add-in's runtime only
// when the add-in asked for it for that document (Microsoft: "Run code in your Office Add-in when
// the document opens": `Office.addin.setStartupBehavior(Office.StartupBehavior.load)`, a shared
// runtime API, requirement set SharedRuntime 1.1). The choice is kept in the document's settings
// (it travels with the .xlsx): "on", "off", or absent while the analyst has not been asked. Only
// that word is stored there, never a key or a server.

/**
 * The document setting's name.
 * @internal Tests read the setting the choice is kept in.
 */
export const OPEN_UPDATE_SETTING = "kaisha.updateAtOpen";

export type OpenUpdateChoice = "on" | "off";

/** The Office parts used here, as a port (tests pass a fake; `officeStartup` gives Office's). */
export interface StartupPort {
  /** SharedRuntime 1.1 and `Office.addin.setStartupBehavior` exist. */
  supported(): boolean;
  setLoadAtOpen(load: boolean): Promise<void>;
  readChoice(): OpenUpdateChoice | undefined;
  saveChoice(choice: OpenUpdateChoice): Promise<void>;
}

interface OfficeLike {
  context?: {
    requirements?: { isSetSupported?: (name: string, version?: string) => boolean };
    document?: {
      settings?: {
        get(name: string): unknown;
        set(name: string, value: unknown): void;
        saveAsync(
          callback?: (result: { status: string; error?: { message?: string } }) => void,
        ): void;
      };
    };
  };
  addin?: { setStartupBehavior?: (behavior: unknown) => Promise<void> };
  StartupBehavior?: { load: unknown; none: unknown };
}

function office(): OfficeLike | undefined {
  return (globalThis as { Office?: OfficeLike }).Office;
}

/** Office's own port (Office.js); outside Office `supported()` is false and nothing is stored. */
export function officeStartup(): StartupPort {
  return {
    supported() {
      try {
        const o = office();
        return (
          o?.context?.requirements?.isSetSupported?.("SharedRuntime", "1.1") === true &&
          typeof o.addin?.setStartupBehavior === "function" &&
          o.StartupBehavior !== undefined
        );
      } catch {
        return false;
      }
    },
    async setLoadAtOpen(load) {
      const o = office();
      const behavior = load ? o?.StartupBehavior?.load : o?.StartupBehavior?.none;
      await o?.addin?.setStartupBehavior?.(behavior);
    },
    readChoice() {
      try {
        const v = office()?.context?.document?.settings?.get(OPEN_UPDATE_SETTING);
        return v === "on" || v === "off" ? v : undefined;
      } catch {
        return undefined;
      }
    },
    saveChoice(choice) {
      const settings = office()?.context?.document?.settings;
      if (settings === undefined) return Promise.resolve();
      settings.set(OPEN_UPDATE_SETTING, choice);
      return new Promise((resolve, reject) =>
        settings.saveAsync((r) =>
          r.status === "failed" ? reject(new Error(r.error?.message ?? "saveAsync")) : resolve(),
        ),
      );
    },
  };
}

/**
 * Whether the pane asks "keep this workbook up to date when it opens?": the host can start the
 * add-in at open, the workbook holds KAISHA formulas, and the analyst has not answered yet (once).
 */
export function shouldAskOpenUpdate(port: StartupPort, kaishaCells: number): boolean {
  return kaishaCells > 0 && port.supported() && port.readChoice() === undefined;
}

/**
 * The analyst's answer: the startup behaviour set for this document (load, or none to turn it
 * off), then the choice kept in it. The behaviour first: a choice saved without it would say "on"
 * for a workbook that does not start the add-in.
 *
 * @example await chooseOpenUpdate(officeStartup(), "on")
 */
export async function chooseOpenUpdate(port: StartupPort, choice: OpenUpdateChoice): Promise<void> {
  if (!port.supported()) return;
  await port.setLoadAtOpen(choice === "on");
  await port.saveChoice(choice);
}
