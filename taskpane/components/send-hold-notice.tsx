// Says when the key sends nothing: the daily limit (and when sending resumes) or a refused key (enter a new one).

import { MessageBar, MessageBarBody, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useSendState } from "../hooks/use-send-state";
import { sendHoldLine } from "../state/usage-model";

/** `only`: shown for that reason alone (the connection section asks for a key on a refused one). */
export function SendHoldNotice({ only }: { only?: "daily_limit" | "key_refused" } = {}) {
  const { t, session } = usePane();
  const state = useSendState(session);
  if (state === undefined || (only !== undefined && state.reason !== only)) return null;
  const line = sendHoldLine(state, t.lang);
  return (
    <MessageBar intent="warning" data-testid="send-hold" data-reason={state.reason}>
      <MessageBarBody>
        <Text weight="semibold">
          {t(state.reason === "daily_limit" ? "holdTitleLimit" : "holdTitleKey")}
        </Text>{" "}
        <span data-testid="send-hold-text">{t(line.key, line.vars)}</span>
      </MessageBarBody>
    </MessageBar>
  );
}
