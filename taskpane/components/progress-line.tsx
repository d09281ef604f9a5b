// Progress of a long action (fetch pages, write blocks) with its Cancel button.

import { Button, ProgressBar, Text } from "@fluentui/react-components";
import type { Translator } from "../i18n/messages";
import type { ImportProgress } from "../state/import-flow";

export function ProgressLine(props: {
  t: Translator;
  progress: ImportProgress | undefined;
  /** expected rows while fetching (total_count), when known. */
  expected?: number | undefined;
  testId: string;
  cancelTestId: string;
  onCancel: () => void;
}) {
  const { t, progress } = props;
  if (!progress) return null;
  const total = progress.phase === "write" ? progress.total : props.expected;
  const value = total && total > 0 ? Math.min(1, progress.rows / total) : undefined;
  const text =
    progress.phase === "write"
      ? t("writeProgress", { n: progress.rows, total: progress.total ?? progress.rows })
      : t("fetchProgress", { n: progress.rows });
  return (
    <div role="status" aria-live="polite" className="kaisha-progress">
      <ProgressBar
        data-testid={props.testId}
        data-value={String(progress.rows)}
        data-phase={progress.phase}
        {...(value === undefined ? {} : { value })}
      />
      <div className="kaisha-row">
        <Text size={200}>{text}</Text>
        <Button
          data-testid={props.cancelTestId}
          size="small"
          aria-label={t("cancelImportNamed")}
          onClick={props.onCancel}
        >
          {t("cancel")}
        </Button>
      </div>
    </div>
  );
}
