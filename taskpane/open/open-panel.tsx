// The pane's word on the workbook's open: what it did and what is still due (with Update when it was held), and the one-time question whether to keep the workbook up to date when it opens.

import { useEffect, useState } from "react";
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Text,
} from "@fluentui/react-components";
import { cellsAnswered } from "../../src/cell-errors";
import { usePane } from "../pane-context";
import { errorText } from "../error-text";
import type { OpenReport, OpenResult } from "./morning-open";
import { currentOpen, onOpenRecorded, type OpenRecord } from "./open-state";
import { openLines } from "./open-summary";
import {
  chooseOpenUpdate,
  officeStartup,
  shouldAskOpenUpdate,
  type OpenUpdateChoice,
  type StartupPort,
} from "./startup-behavior";

/** The open recorded in this runtime, its outcome once known and its report as it changes. */
function useOpen(): { result: OpenResult | undefined; report: OpenReport | undefined } {
  const [record, setRecord] = useState<OpenRecord | undefined>(currentOpen);
  const [result, setResult] = useState<OpenResult | undefined>();
  const [report, setReport] = useState<OpenReport | undefined>();
  useEffect(() => onOpenRecorded(setRecord), []);
  useEffect(() => {
    if (record === undefined) return undefined;
    let live = true;
    setResult(undefined);
    setReport(record.progress.report());
    void record.result.then(
      (r) => {
        if (!live) return;
        setResult(r);
        setReport(record.progress.report());
      },
      () => undefined,
    );
    const off = record.progress.onChange((r) => live && setReport(r));
    return () => {
      live = false;
      off();
    };
  }, [record]);
  return { result, report };
}

/** How often the pane looks whether KAISHA cells have answered yet (a workbook started empty). */
const USED_POLL_MS = 2_000;

/**
 * Whether KAISHA formulas are in use in this workbook: found by the open's scan, or answered in
 * this runtime since (a formula typed or built in a workbook that had none).
 */
function useKaishaUsed(cells: number | undefined): boolean {
  const [answered, setAnswered] = useState(() => cellsAnswered() > 0);
  useEffect(() => {
    if (answered) return undefined;
    const timer = setInterval(() => {
      if (cellsAnswered() > 0) setAnswered(true);
    }, USED_POLL_MS);
    return () => clearInterval(timer);
  }, [answered]);
  return (cells ?? 0) > 0 || answered;
}

/** `port`: given by tests; the pane uses Office's. */
export function OpenPanel({ port = officeStartup() }: { port?: StartupPort } = {}) {
  const { t } = usePane();
  const { result, report } = useOpen();
  const [asked, setAsked] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const used = useKaishaUsed(result?.cells);
  const ask = result !== undefined && !asked && shouldAskOpenUpdate(port, used ? 1 : 0);
  const lines = report === undefined ? [] : openLines(result, report);
  const choose = (choice: OpenUpdateChoice) => {
    setAsked(true);
    chooseOpenUpdate(port, choice).catch((err: unknown) =>
      setFailure(t("openAtOpenFailed", { message: errorText(err, t) })),
    );
  };
  if (report === undefined) return null;
  return (
    <div role="status" aria-live="polite" data-testid="open-region">
      {result === undefined && (
        <Text size={200} data-testid="open-checking">
          {t("openChecking")}
        </Text>
      )}
      {lines.length > 0 && (
        <MessageBar
          intent={result?.update !== undefined ? "warning" : "info"}
          data-testid="open-summary"
          data-companies={String(report.companies)}
          data-cells={String(report.cells)}
          data-requests={String(report.requests)}
          data-due-companies={String(report.due.companies)}
          data-due-requests={String(report.due.requests)}
          data-held={String(result?.update !== undefined && report.due.paused === "user")}
        >
          <MessageBarBody>
            {lines.map((l) => (
              <span key={l.key} data-testid={`open-line-${l.key}`}>
                {t(l.key, l.vars)}{" "}
              </span>
            ))}
          </MessageBarBody>
          {result?.update !== undefined && report.due.paused === "user" && (
            <MessageBarActions>
              <Button size="small" data-testid="open-update" onClick={() => result.update?.()}>
                {t("update")}
              </Button>
            </MessageBarActions>
          )}
        </MessageBar>
      )}
      {ask && (
        <MessageBar intent="info" data-testid="open-ask">
          <MessageBarBody>{t("openAsk")}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" data-testid="open-ask-yes" onClick={() => choose("on")}>
              {t("openAskYes")}
            </Button>
            <Button size="small" data-testid="open-ask-no" onClick={() => choose("off")}>
              {t("openAskNo")}
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {failure !== undefined && (
        <Text size={200} data-testid="open-ask-failed">
          {failure}
        </Text>
      )}
    </div>
  );
}
