// Background updates on open: "Updating 37 companies, 4 min left", Pause/Resume, Stop, the daily budget.

import { useEffect, useState } from "react";
import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Text,
} from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useRevalidationStatus } from "../hooks/use-revalidation-status";
import {
  RevalidationControls,
  revalidationLine,
  revalidationVisible,
} from "../state/revalidation-model";

/** `controls`: given by tests (with their storage); the pane makes its own. */
export function RevalidationView({ controls: given }: { controls?: RevalidationControls } = {}) {
  const { t, session } = usePane();
  const status = useRevalidationStatus(session);
  const [controls] = useState(
    () => given ?? new RevalidationControls(() => session.client().revalidation?.()),
  );
  const [, setRevision] = useState(0);
  useEffect(() => controls.subscribe(() => setRevision((r) => r + 1)), [controls]);
  const { stopped, budgetText, refused: budgetRefused } = controls;
  const visible = revalidationVisible(status);
  const line = revalidationLine(status);
  return (
    <div role="status" aria-live="polite" data-testid="revalidation-region">
      {visible && (
        <MessageBar
          intent={status.paused === "budget" ? "warning" : "info"}
          data-testid="revalidation-view"
          data-companies={String(status.companies)}
          data-requests={String(status.requests)}
          data-paused={status.paused ?? ""}
        >
          <MessageBarBody>
            <Text weight="semibold">{t("revalTitle")}</Text>{" "}
            <span data-testid="revalidation-text">{t(line.key, line.vars)}</span>
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
      {/* Always shown (not only while an update runs), so the budget can be set beforehand. */}
      <Field
        label={t("revalBudget")}
        hint={t("revalBudgetHint", { n: status.spentToday })}
        validationState={budgetRefused ? "error" : "none"}
        validationMessage={budgetRefused ? t("revalBudgetRefused") : null}
      >
        <Input
          data-testid="revalidation-budget"
          inputMode="numeric"
          value={budgetText}
          onChange={(_e, d) => controls.typeBudget(d.value)}
        />
      </Field>
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
