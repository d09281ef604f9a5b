// Background updates on open: "Updating 37 companies, 4 min left", Pause/Resume, Stop, the daily budget.

import { useState } from "react";
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
  loadBudget,
  parseBudget,
  revalidationLine,
  revalidationVisible,
  saveBudget,
} from "../state/revalidation-model";

export function RevalidationView() {
  const { t, session } = usePane();
  const status = useRevalidationStatus(session);
  const [stopped, setStopped] = useState(false);
  const [budgetText, setBudgetText] = useState(() => String(loadBudget() ?? ""));
  const queue = () => session.client().revalidation?.();
  const visible = revalidationVisible(status);
  const line = revalidationLine(status);
  const budget = parseBudget(budgetText);
  const budgetRefused = Number.isNaN(budget);
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
                onClick={() => queue()?.resume()}
              >
                {t("revalResume")}
              </Button>
            ) : (
              <Button
                size="small"
                data-testid="revalidation-pause"
                onClick={() => queue()?.pause()}
              >
                {t("revalPause")}
              </Button>
            )}
            <Button
              size="small"
              data-testid="revalidation-cancel"
              onClick={() => {
                queue()?.cancel();
                setStopped(true);
              }}
            >
              {t("revalCancel")}
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {visible && (
        <Field
          label={t("revalBudget")}
          hint={t("revalBudgetHint", { n: status.spentToday })}
          validationState={budgetRefused ? "error" : "none"}
        >
          <Input
            data-testid="revalidation-budget"
            inputMode="numeric"
            value={budgetText}
            onChange={(_e, d) => {
              setBudgetText(d.value);
              const next = parseBudget(d.value);
              if (Number.isNaN(next)) return;
              saveBudget(next);
              queue()?.setDailyBudget(next);
            }}
          />
        </Field>
      )}
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
