// Renders pane components (server-side, no browser) inside the pane's context over a given client.

import { renderToString } from "react-dom/server";
import { FluentProvider, SSRProvider, webLightTheme } from "@fluentui/react-components";
import type { ReactElement } from "react";
import { PaneContext, type PaneContextValue } from "../../taskpane/pane-context";
import type { PaneSession } from "../../taskpane/pane-session";
import { translator } from "../../taskpane/i18n/messages";
import type { Lang } from "../../taskpane/i18n/language";
import { KeyManager, memoryStore } from "../../taskpane/state/key-store";
import type { PaneClient } from "../../taskpane/state/pane-client";

/** A session with no key, production settings and `client`; nothing it does reaches storage. */
export function sessionOver(client: PaneClient): PaneSession {
  return {
    keys: new KeyManager(memoryStore()),
    settings: { preset: "production", customUrl: "", mode: "direct", headerLanguage: "keys" },
    client: () => client,
    applySettings: async () => undefined,
    setKey: async () => undefined,
    forgetKey: async () => undefined,
    onChange: () => () => undefined,
  };
}

/** The HTML `node` renders to in the pane (Fluent theme, the context over `client`), in `lang`. */
export function renderInPane(
  node: ReactElement,
  client: PaneClient,
  lang: Lang,
  excel = true,
): string {
  const value: PaneContextValue = {
    t: translator(lang),
    session: sessionOver(client),
    excel,
    connection: "none",
    setConnection: () => undefined,
    revision: 0,
    bump: () => undefined,
  };
  return renderToString(
    <SSRProvider>
      <FluentProvider theme={webLightTheme}>
        <PaneContext.Provider value={value}>{node}</PaneContext.Provider>
      </FluentProvider>
    </SSRProvider>,
  );
}
