// Background updates on open: "Updating 37 companies, 4 min left", Pause/Resume, Stop, the daily budget.

import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Text,
} from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useRevalidationStatus } from "../hooks/use-revalidation-status";
import {
  revalidationLine,
  revalidationVisible,
  type RevalidationControls,
} from "../state/revalidation-model";
import { BudgetField, useRevalidationControls } from "./budget-field";
import { SendHoldNotice } from "./send-hold-notice";

/** `controls`: given by tests (with their storage); the pane uses its session's. */
export function RevalidationView({ controls: given }: { controls?: RevalidationControls } = {}) {
  const { t, session } = usePane();
  const status = useRevalidationStatus(session);
  const controls = useRevalidationControls(given);
  const { stopped } = controls;
  const visible = revalidationVisible(status);
  const line = revalidationLine(status);
  return (
    <div role="status" aria-live="polite" data-testid="revalidation-region">
      {/* The key sends nothing (the daily limit, a refused key): said above every section. */}
      <SendHoldNotice />
      {visible && (
        <MessageBar
          intent={status.paused === undefined || status.paused === "user" ? "info" : "warning"}
          data-testid="revalidation-view"
          data-companies={String(status.companies)}
          data-requests={String(status.requests)}
          data-paused={status.paused ?? ""}
        >
          <MessageBarBody>
            <Text weight="semibold">{t("revalTitle")}</Text>{" "}
            <span data-testid="revalidation-text">{t(line.key, line.vars)}</span>
            {/* Companies whose results can be out and whose marked cells wait for a check. */}
            {status.unchecked > 0 && (
              <>
                {" "}
                <span data-testid="revalidation-unchecked">
                  {t("revalUnchecked", { n: status.unchecked })}
                </span>
              </>
            )}
          </MessageBarBody>
          <MessageBarActions>
            {status.paused === "user" ? (
              <Button
                size="small"
                data-testid="revalidation-resume"
                onClick={() => controls.resume()}
              >
                {t("revalResume")}
              </Button>
            ) : (
              <Button
                size="small"
                data-testid="revalidation-pause"
                onClick={() => controls.pause()}
              >
                {t("revalPause")}
              </Button>
            )}
            <Button size="small" data-testid="revalidation-cancel" onClick={() => controls.stop()}>
              {t("revalCancel")}
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {/* Beside a running update too (it is always in the Refresh section). */}
      {visible && <BudgetField controls={controls} />}
      {!visible && status.changed > 0 && (
        <Text size={200} data-testid="revalidation-changed">
          {t("revalChanged", { n: status.changed })}
        </Text>
      )}
      {!visible && stopped && (
        <Text size={200} data-testid="revalidation-stopped">
          {t("revalCancelled")}
        </Text>
      )}
    </div>
  );
}
