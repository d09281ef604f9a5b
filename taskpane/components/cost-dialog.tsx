// The question before Update or Refresh all spends requests: what it costs, what is left today, and a warning when that is not enough.

import { useRef } from "react";
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Text,
} from "@fluentui/react-components";
import type { RevalidationStatus } from "../../src/client";
import type { Translator } from "../i18n/messages";
import { updateCostLine, updateShortLine } from "../open/open-summary";
import { usePane } from "../pane-context";

/** What the dialog states; `testId` names its parts ("update-confirm-cost", …) for the e2e tests. */
export interface CostQuestion {
  testId: "update-confirm" | "refresh-confirm";
  title: string;
  /** The cost line, with the figures it states as data attributes (data-requests, …). */
  cost: string;
  costData: Record<string, string>;
  /** The API's requests left today (/usage), undefined when the check failed. */
  remaining: number | undefined;
  /** The warning when the cost exceeds what is left today; undefined when it does not. */
  short: string | undefined;
  run: string;
  cancel: string;
}

/**
 * Update's question: the open's rule (what can have changed), its cost, and a warning when that
 * is more than today leaves (open-summary.ts updateShortLine).
 */
export function updateQuestion(
  t: Translator,
  due: RevalidationStatus,
  remaining: number | undefined,
): CostQuestion {
  const cost = updateCostLine(due);
  const short = updateShortLine(due, remaining);
  return {
    testId: "update-confirm",
    title: t("updateConfirmTitle"),
    cost: t(cost.key, cost.vars),
    costData: { requests: String(due.requests), companies: String(due.companies) },
    remaining,
    short: short && t(short.key, short.vars),
    run: t("updateConfirmRun"),
    cancel: t("updateConfirmCancel"),
  };
}

/** What Refresh all's question is asked about: its request counts and the verdict on today's budget. */
export interface RefreshAsk {
  formulas: boolean;
  requests: number;
  remaining: number | undefined;
  enough: boolean | undefined;
  formulaRequests: number;
  imports: number;
}

/** Refresh all's (or the imports') question: everything asked again, against the requests left today. */
export function refreshQuestion(t: Translator, a: RefreshAsk): CostQuestion {
  return {
    testId: "refresh-confirm",
    title: a.formulas ? t("refreshConfirmTitle") : t("refreshImportsConfirmTitle"),
    cost: a.formulas
      ? t("refreshConfirmCost", { n: a.requests, formulas: a.formulaRequests, imports: a.imports })
      : t("refreshImportsConfirmCost", { n: a.requests }),
    costData: { requests: String(a.requests) },
    remaining: a.remaining,
    short: a.enough === false ? t("refreshConfirmShort") : undefined,
    run: a.formulas ? t("refreshConfirmRun") : t("refreshImportsConfirmRun"),
    cancel: t("refreshConfirmCancel"),
  };
}

/**
 * The dialog's text: the cost, the requests left today and, when short, the warning.
 *
 * @internal exported for its tests (test/taskpane/cost-dialog.test.tsx): a closed Dialog renders
 * nothing outside a browser.
 */
export function CostLines({ question }: { question: CostQuestion }) {
  const { t } = usePane();
  const { testId, remaining } = question;
  const data = Object.fromEntries(
    Object.entries(question.costData).map(([k, v]) => [`data-${k}`, v]),
  );
  return (
    <>
      <Text as="p" block data-testid={`${testId}-cost`} {...data}>
        {question.cost}
      </Text>
      <Text
        as="p"
        block
        data-testid={`${testId}-remaining`}
        data-remaining={remaining === undefined ? "" : String(remaining)}
      >
        {remaining === undefined
          ? t("refreshConfirmRemainingUnknown")
          : t("refreshConfirmRemaining", { n: remaining })}
      </Text>
      {question.short !== undefined && (
        <Text as="p" block weight="semibold" data-testid={`${testId}-short`}>
          {question.short}
        </Text>
      )}
    </>
  );
}

/** Asks `question` while it is defined; `onRun` or `onClose` (Cancel, Escape) answers it. */
export function CostDialog({
  question,
  onRun,
  onClose,
}: {
  question: CostQuestion | undefined;
  onRun: () => void;
  onClose: () => void;
}) {
  // The last question stays on the surface while it closes (its exit motion), ids and text unchanged.
  const last = useRef<CostQuestion | undefined>(undefined);
  if (question !== undefined) last.current = question;
  const shown = question ?? last.current;
  const testId = shown?.testId ?? "refresh-confirm";
  return (
    <Dialog
      open={question !== undefined}
      onOpenChange={(_, d) => {
        if (!d.open) onClose();
      }}
    >
      <DialogSurface data-testid={testId} aria-describedby={`${testId}-text`}>
        <DialogBody>
          <DialogTitle>{shown?.title}</DialogTitle>
          <DialogContent id={`${testId}-text`}>
            {shown && <CostLines question={shown} />}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" data-testid={`${testId}-run`} onClick={onRun}>
              {shown?.run}
            </Button>
            <Button data-testid={`${testId}-cancel`} onClick={onClose}>
              {shown?.cancel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
