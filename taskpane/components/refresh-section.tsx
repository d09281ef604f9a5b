// Refresh and portability: Update (what can have changed) and Refresh all (everything) / imports, updating at open, the background updates' daily budget, Freeze values / Restore, Problems list, Usage panel.

import { useState } from "react";
import {
  Button,
  Divider,
  Field,
  ProgressBar,
  Select,
  Spinner,
  Switch,
  Text,
} from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useTask } from "../hooks/use-task";
import { errorText } from "../error-text";
import { freezeFormulas, restoreFormulas, type FreezeScope } from "../excel/freeze";
import { freezeSummary, restoreSummary } from "../state/freeze-summary";
import { estimateWorkbookRefresh, prepareUpdate, runRefresh } from "../refresh-runner";
import type { OpenResult } from "../open/morning-open";
import { chooseOpenUpdate, officeStartup } from "../open/startup-behavior";
import { parseUsage, refreshVerdict } from "../state/usage-model";
import { URL_PRESETS } from "../pane-session";
import { baseUrlOf } from "../state/pane-settings";
import { refreshMessage, type RefreshProgress } from "../state/refresh-flow";
import { ProblemsList } from "./problems-list";
import { UsagePanel } from "./usage-panel";
import { StatusMessage } from "./status-message";
import { BudgetField, useRevalidationControls } from "./budget-field";
import { CostDialog, refreshQuestion, updateQuestion, type RefreshAsk } from "./cost-dialog";

export function RefreshSection() {
  const { t, session, excel, bump } = usePane();
  const refresh = useTask(t);
  const freeze = useTask(t);
  const revalidation = useRevalidationControls();
  const [progress, setProgress] = useState<RefreshProgress | undefined>();
  const [scope, setScope] = useState<FreezeScope>("selection");
  const [asking, setAsking] = useState<RefreshAsk | undefined>();
  const [estimating, setEstimating] = useState(false);
  // Update: the open's rule, held with its cost until the analyst runs it.
  const [updating, setUpdating] = useState<
    { result: OpenResult; remaining: number | undefined } | undefined
  >();
  const startup = officeStartup();
  const [atOpen, setAtOpen] = useState(() => startup.readChoice() === "on");
  // Cells the last Refresh all left in error, and a count that asks Problems to list them.
  const [leftInError, setLeftInError] = useState(0);
  const [problemsRequest, setProblemsRequest] = useState(0);

  // Refresh spends quota: first say what it will cost and what is left today (/usage is free).
  const ask = async (formulas: boolean) => {
    setEstimating(true);
    refresh.setMessage(undefined);
    try {
      const estimate = await estimateWorkbookRefresh();
      const usage = await session
        .client()
        .usage()
        .then(parseUsage)
        .catch(() => undefined);
      setAsking({ formulas, ...refreshVerdict(estimate, formulas, usage), ...estimate });
    } catch (err) {
      refresh.setMessage({ intent: "error", text: errorText(err, t) });
    } finally {
      setEstimating(false);
    }
  };

  // Update costs only what can have changed: answered from what is stored first, its requests
  // counted before any is sent (/usage is free).
  const askUpdate = async () => {
    setEstimating(true);
    refresh.setMessage(undefined);
    try {
      const result = await prepareUpdate();
      if (result.update === undefined) {
        refresh.setMessage({ intent: "success", text: t("updateNothing") });
        return;
      }
      const usage = await session
        .client()
        .usage()
        .then(parseUsage)
        .catch(() => undefined);
      setUpdating({ result, remaining: usage?.remaining });
    } catch (err) {
      refresh.setMessage({ intent: "error", text: errorText(err, t) });
    } finally {
      setEstimating(false);
    }
  };

  const changeAtOpen = (on: boolean) => {
    setAtOpen(on);
    chooseOpenUpdate(startup, on ? "on" : "off").catch((err: unknown) => {
      setAtOpen(!on);
      refresh.setMessage({
        intent: "error",
        text: t("openAtOpenFailed", { message: errorText(err, t) }),
      });
    });
  };

  const runAll = (formulas: boolean) =>
    refresh.run(async (signal) => {
      setLeftInError(0);
      try {
        const s = await runRefresh(session.client(), t.lang, {
          formulas,
          signal,
          onProgress: setProgress,
        });
        bump();
        // What it did, and what is still wrong: never a success over cells showing errors.
        const { showProblems, ...message } = refreshMessage(s, t, (e) => errorText(e, t));
        setLeftInError(showProblems ? s.errors : 0);
        return message;
      } finally {
        setProgress(undefined);
      }
    });

  // "source" on the provenance sheet: where the values came from (the API server), never the key.
  const source = () => {
    try {
      return `KAISHA / ${new URL(baseUrlOf(session.settings, URL_PRESETS)).host}`;
    } catch {
      return "KAISHA";
    }
  };

  const runFreeze = () =>
    freeze.run(async () => {
      const r = await freezeFormulas(scope, source());
      bump();
      return freezeSummary(r, t);
    });

  const runRestore = () =>
    freeze.run(async () => {
      const r = await restoreFormulas(scope);
      bump();
      return restoreSummary(r, t);
    });

  const progressText =
    progress?.step === "import" && progress.table
      ? t("refreshImporting", { table: progress.table })
      : progress?.step === "settle"
        ? t("refreshSettling")
        : progress
          ? t("refreshRecalculating")
          : "";

  return (
    <div className="kaisha-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("refreshTitle")}
      </Text>
      <Text size={200}>{t("updateHint")}</Text>
      <Text size={200}>{t("refreshAllHint")}</Text>
      <div className="kaisha-row">
        <Button
          data-testid="update"
          appearance="primary"
          disabled={refresh.running || estimating || !excel}
          onClick={() => void askUpdate()}
        >
          {t("update")}
        </Button>
        <Button
          data-testid="refresh-all"
          disabled={refresh.running || estimating || !excel}
          onClick={() => void ask(true)}
        >
          {t("refreshAll")}
        </Button>
        <Button
          data-testid="refresh-imports"
          disabled={refresh.running || estimating || !excel}
          onClick={() => void ask(false)}
        >
          {t("refreshImports")}
        </Button>
      </div>
      {excel && startup.supported() && (
        <Switch
          data-testid="update-at-open"
          checked={atOpen}
          label={t("openAtOpenLabel")}
          onChange={(_, d) => changeAtOpen(d.checked)}
        />
      )}
      {excel && startup.supported() && <Text size={200}>{t("openAtOpenHint")}</Text>}
      {estimating && <Spinner size="tiny" label={t("refreshEstimating")} />}
      <CostDialog
        question={updating && updateQuestion(t, updating.result.due, updating.remaining)}
        onRun={() => {
          updating?.result.update?.();
          setUpdating(undefined);
        }}
        onClose={() => setUpdating(undefined)}
      />
      <CostDialog
        question={asking && refreshQuestion(t, asking)}
        onRun={() => {
          const formulas = asking?.formulas ?? true;
          setAsking(undefined);
          void runAll(formulas);
        }}
        onClose={() => setAsking(undefined)}
      />
      {progress && (
        <div className="kaisha-progress">
          <ProgressBar
            data-testid="refresh-progress"
            value={progress.total > 0 ? progress.done / progress.total : 0}
            data-value={String(progress.done)}
          />
          <div className="kaisha-row">
            <Text size={200}>{progressText}</Text>
            <Button
              size="small"
              data-testid="refresh-cancel"
              aria-label={t("refreshCancelNamed")}
              onClick={refresh.cancel}
            >
              {t("cancel")}
            </Button>
          </div>
        </div>
      )}
      <StatusMessage message={refresh.message} testId="refresh-summary" />
      {leftInError > 0 && !refresh.running && (
        <Button
          size="small"
          appearance="transparent"
          data-testid="refresh-show-problems"
          onClick={() => setProblemsRequest((n) => n + 1)}
        >
          {t("refreshShowProblems")}
        </Button>
      )}

      <Divider />
      <Text as="h2" weight="semibold" size={400}>
        {t("revalSettingsTitle")}
      </Text>
      <Text size={200}>{t("revalSettingsHint")}</Text>
      <BudgetField controls={revalidation} />

      <Divider />
      <Text as="h2" weight="semibold" size={400}>
        {t("portabilityTitle")}
      </Text>
      <Text size={200}>{t("freezeHint")}</Text>
      <Field label={t("freezeScope")}>
        <Select
          data-testid="freeze-scope"
          value={scope}
          onChange={(_, d) => setScope(d.value === "sheet" ? "sheet" : "selection")}
        >
          <option value="selection">{t("scopeSelection")}</option>
          <option value="sheet">{t("scopeSheet")}</option>
        </Select>
      </Field>
      <div className="kaisha-row">
        <Button
          data-testid="freeze-values"
          disabled={freeze.running || !excel}
          onClick={() => void runFreeze()}
        >
          {t("freezeValues")}
        </Button>
        <Button
          data-testid="restore-formulas"
          disabled={freeze.running || !excel}
          onClick={() => void runRestore()}
        >
          {t("restoreFormulas")}
        </Button>
      </div>
      <StatusMessage message={freeze.message} testId="freeze-summary" />

      <Divider />
      <ProblemsList scanRequest={problemsRequest} />
      <Divider />
      <UsagePanel />
    </div>
  );
}
