// Problems: KAISHA formula cells showing errors, with their messages where readable, and Retry.

import { useEffect, useRef, useState } from "react";
import { Button, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useTask } from "../hooks/use-task";
import { findKaishaFormulas, qualifiedAddress, selectCell } from "../excel/formulas";
import { reenterFormulas } from "../excel/reenter-formulas";
import { genericErrorKey, problemsOf, type Problem } from "../state/problems";
import { StatusMessage } from "./status-message";

/**
 * @param props.scanRequest a count another section raises to have the list scan and come into
 * view (Refresh all's "Show them in Problems"); 0 asks nothing.
 */
export function ProblemsList(props: { scanRequest?: number }) {
  const { t, session, excel } = usePane();
  const task = useTask(t);
  const [problems, setProblems] = useState<Problem[] | undefined>();
  const top = useRef<HTMLDivElement>(null);

  const scan = () =>
    task.run(async () => {
      const found = problemsOf(await findKaishaFormulas("workbook", true));
      setProblems(found);
      return {
        intent: found.length ? "warning" : "success",
        text: found.length ? t("problemsCount", { n: found.length }) : t("problemsNone"),
      };
    });

  const retry = () =>
    task.run(async () => {
      if (!problems?.length) return undefined;
      // Failed answers are not cached; dropping the cache makes sure stale ones are not reused either.
      await session.client().invalidateAll();
      // Only cells still holding the formula the scan found: one the analyst typed over or edited
      // since is theirs (their edit already made Excel evaluate it), and the count says so.
      const n = await reenterFormulas(problems);
      setProblems(undefined);
      return { intent: "info", text: t("problemsRetried", { n }) };
    });

  const request = props.scanRequest ?? 0;
  useEffect(() => {
    if (request === 0) return;
    top.current?.scrollIntoView?.({ block: "start" });
    // Only a new request scans (scan itself is a new function every render).
    void scan();
  }, [request]);

  return (
    <div ref={top} data-testid="problems-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("problemsTitle")}
      </Text>
      <div className="kaisha-row">
        <Button
          data-testid="problems-scan"
          disabled={task.running || !excel}
          onClick={() => void scan()}
        >
          {t("problemsScan")}
        </Button>
        <Button
          data-testid="problems-retry"
          aria-label={t("problemsRetryNamed")}
          disabled={task.running || !excel || !problems?.length}
          onClick={() => void retry()}
        >
          {t("problemsRetry")}
        </Button>
      </div>
      <ul
        className="kaisha-list"
        data-testid="problems-list"
        data-count={String(problems?.length ?? 0)}
      >
        {(problems ?? []).map((p, i) => (
          <li key={`${p.sheet}!${p.address}`} data-testid={`problem-row-${i}`}>
            <div>
              <Button
                size="small"
                appearance="transparent"
                data-testid={`problem-select-${i}`}
                title={t("problemsGoTo")}
                aria-label={t("problemsGoToNamed", { address: qualifiedAddress(p) })}
                onClick={() => void selectCell(p.sheet, p.address).catch(() => undefined)}
              >
                {qualifiedAddress(p)}
              </Button>{" "}
              <Text>{p.error}</Text>
            </div>
            <Text size={200}>{p.message ?? t(genericErrorKey(p.error), { code: p.error })}</Text>
            <code className="kaisha-formula">{p.formula}</code>
          </li>
        ))}
      </ul>
      <StatusMessage message={task.message} testId="problems-message" />
    </div>
  );
}
