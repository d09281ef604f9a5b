// The daily budget of background requests: a field kept in the Refresh section, and beside a running update.

import { useEffect, useState } from "react";
import { Field, Input } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useRevalidationStatus } from "../hooks/use-revalidation-status";
import { sharedControls, type RevalidationControls } from "../state/revalidation-model";

/**
 * The session's controls (or `given`, in tests), re-rendering the caller when they change: what is
 * typed in one budget field shows in the other.
 */
export function useRevalidationControls(given?: RevalidationControls): RevalidationControls {
  const { session } = usePane();
  const controls = given ?? sharedControls(session, () => session.client().revalidation?.());
  const [, setRevision] = useState(0);
  useEffect(() => controls.subscribe(() => setRevision((r) => r + 1)), [controls]);
  return controls;
}

/** "Background requests per day": the default (800) filled in; a refused entry is said under it. */
export function BudgetField({ controls }: { controls: RevalidationControls }) {
  const { t, session } = usePane();
  const status = useRevalidationStatus(session);
  return (
    <Field
      label={t("revalBudget")}
      hint={t("revalBudgetHint", { n: status.spentToday })}
      validationState={controls.refused ? "error" : "none"}
      validationMessage={controls.refused ? t("revalBudgetRefused") : null}
    >
      <Input
        data-testid="revalidation-budget"
        inputMode="numeric"
        value={controls.budgetText}
        onChange={(_e, d) => controls.typeBudget(d.value)}
      />
    </Field>
  );
}
