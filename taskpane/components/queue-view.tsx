// Requests waiting for the pacer: how many, the estimated time, a 429 pause, the sheet's companies complete, and Cancel.

import { useState } from "react";
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Text,
} from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useQueueStatus } from "../hooks/use-queue-status";
import { pauseSeconds, queueVisible, sheetCompanies, waitSeconds } from "../state/queue-model";

export function QueueView() {
  const { t, session } = usePane();
  const status = useQueueStatus(session);
  const [cancelled, setCancelled] = useState<number | undefined>();
  const now = Date.now();
  const visible = queueVisible(status, now);
  const pause = pauseSeconds(status, now);
  const sheet = sheetCompanies(status);
  return (
    <div role="status" aria-live="polite" data-testid="queue-region">
      {visible && (
        <MessageBar
          intent="info"
          data-testid="queue-view"
          data-waiting={String(status.waiting)}
          data-in-flight={String(status.inFlight)}
          data-wait-seconds={String(waitSeconds(status))}
        >
          <MessageBarBody>
            <Text weight="semibold">{t("queueTitle")}</Text>{" "}
            <span data-testid="queue-text">
              {t("queueWaiting", { n: status.waiting, s: waitSeconds(status) })}
              {status.inFlight > 0 ? ` ${t("queueInFlight", { n: status.inFlight })}` : ""}
              {pause > 0 ? ` ${t("queuePaused", { s: pause })}` : ""}
            </span>
            {sheet !== undefined && (
              <>
                {" "}
                <span
                  data-testid="queue-sheet"
                  data-complete={String(sheet.c)}
                  data-companies={String(sheet.n)}
                >
                  {t("queueSheetComplete", sheet)}
                </span>
              </>
            )}
          </MessageBarBody>
          <MessageBarActions>
            <Button
              size="small"
              data-testid="queue-cancel"
              disabled={status.waiting === 0}
              onClick={() => setCancelled(session.client().cancelQueued())}
            >
              {t("queueCancel", { n: status.waiting })}
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {!visible && cancelled !== undefined && cancelled > 0 && (
        <Text size={200} data-testid="queue-cancelled" data-count={String(cancelled)}>
          {t("queueCancelled", { n: cancelled })}
        </Text>
      )}
    </div>
  );
}
