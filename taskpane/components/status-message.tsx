// A section's result or error message as a Fluent MessageBar inside a live region (screen readers
// hear it when it changes); errors carry the client's localized text.

import { MessageBar, MessageBarBody } from "@fluentui/react-components";
import type { TaskMessage } from "../hooks/use-task";

export function StatusMessage(props: { message: TaskMessage | undefined; testId: string }) {
  const m = props.message;
  const data = Object.fromEntries(Object.entries(m?.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  // The region stays in the page, so a message appearing in it is announced.
  return (
    <div aria-live={m?.intent === "error" ? "assertive" : "polite"} role="status">
      {m && (
        <MessageBar intent={m.intent} data-testid={props.testId} data-intent={m.intent} {...data}>
          <MessageBarBody>{m.text}</MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}
