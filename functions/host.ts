// The Excel host's capabilities (data types) and Office display language, injectable for tests.

import { PLAIN_HOST, type HostCapabilities } from "../src/excel/values";
import { getSettings, type Lang } from "../src/session";

/**
 * Capabilities the functions shape results for (set by `setHostCapabilities`), read as a binding
 * by the cells' warm path (functions/cells/define-cell.ts), which then enters no code of this file.
 */
export let hostCapabilities: HostCapabilities = PLAIN_HOST;

/** Capabilities the functions shape results for. */
export function getHostCapabilities(): HostCapabilities {
  return hostCapabilities;
}

/** Set by startup (and tests). */
export function setHostCapabilities(next: HostCapabilities): void {
  hostCapabilities = next;
}

interface OfficeLike {
  context?: {
    displayLanguage?: string;
    requirements?: { isSetSupported?: (name: string, version?: string) => boolean };
  };
}

function office(): OfficeLike | undefined {
  return (globalThis as { Office?: OfficeLike }).Office;
}

/**
 * Formatted numbers and entities need CustomFunctionsRuntime 1.4; older hosts get plain
 * serials and tables.
 */
export function detectHostCapabilities(): HostCapabilities {
  try {
    const supported = office()?.context?.requirements?.isSetSupported?.(
      "CustomFunctionsRuntime",
      "1.4",
    );
    return { dataTypes: supported === true };
  } catch {
    return PLAIN_HOST;
  }
}

/** "ja" when Office's display language is Japanese (ja-JP, ja), "en" otherwise; undefined outside Office. */
export function officeDisplayLang(): Lang | undefined {
  const tag = office()?.context?.displayLanguage;
  if (typeof tag !== "string" || tag === "") return undefined;
  return tag.toLowerCase().startsWith("ja") ? "ja" : "en";
}

/** Language of cell messages: Office's display language, else the session setting. */
export function messageLang(): Lang {
  return officeDisplayLang() ?? getSettings().lang;
}
