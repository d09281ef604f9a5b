// React context shared by the sections: translator, session, Excel availability, connection status.

import { createContext, useContext } from "react";
import type { Translator } from "./i18n/messages";
import type { PaneSession } from "./pane-session";

export type ConnectionState = "none" | "unverified" | "ok" | "error";

export interface PaneContextValue {
  t: Translator;
  session: PaneSession;
  excel: boolean;
  connection: ConnectionState;
  setConnection(state: ConnectionState): void;
  /** Bumped after imports/refreshes so panels showing counts can reload. */
  revision: number;
  bump(): void;
}

export const PaneContext = createContext<PaneContextValue | null>(null);

/** Whether the section around a component is the one shown (sections stay mounted once opened). */
export const SectionShown = createContext(true);

export function useSectionShown(): boolean {
  return useContext(SectionShown);
}

export function usePane(): PaneContextValue {
  const value = useContext(PaneContext);
  if (!value) throw new Error("usePane outside PaneContext");
  return value;
}
