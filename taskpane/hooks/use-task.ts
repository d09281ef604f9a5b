// Runs one async action of a section: busy flag, Cancel through AbortController, result message.

import { useCallback, useRef, useState } from "react";
import { errorText, isCancel } from "../error-text";
import type { Translator } from "../i18n/messages";

export interface TaskMessage {
  intent: "success" | "error" | "info" | "warning";
  text: string;
  /** data-* attributes for tests (e.g. rows, table). */
  data?: Record<string, string>;
}

export interface Task {
  running: boolean;
  message: TaskMessage | undefined;
  setMessage(m: TaskMessage | undefined): void;
  run(action: (signal: AbortSignal) => Promise<TaskMessage | undefined>): Promise<void>;
  cancel(): void;
}

export function useTask(t: Translator): Task {
  const [running, setRunning] = useState(false);
  const [message, setMessage] = useState<TaskMessage | undefined>();
  const controller = useRef<AbortController | null>(null);

  const run = useCallback(
    async (action: (signal: AbortSignal) => Promise<TaskMessage | undefined>) => {
      const ac = new AbortController();
      controller.current = ac;
      setRunning(true);
      setMessage(undefined);
      try {
        setMessage(await action(ac.signal));
      } catch (err) {
        setMessage({ intent: isCancel(err) ? "warning" : "error", text: errorText(err, t) });
      } finally {
        controller.current = null;
        setRunning(false);
      }
    },
    [t],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { running, message, setMessage, run, cancel };
}
