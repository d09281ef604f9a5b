// A section's result or error message as a Fluent MessageBar (errors carry the client's localized text).

import { MessageBar, MessageBarBody } from "@fluentui/react-components";
import type { TaskMessage } from "../hooks/use-task";

export function StatusMessage(props: { message: TaskMessage | undefined; testId: string }) {
  const m = props.message;
  if (!m) return null;
  const data = Object.fromEntries(Object.entries(m.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  return (
    <MessageBar intent={m.intent} data-testid={props.testId} data-intent={m.intent} {...data}>
      <MessageBarBody>{m.text}</MessageBarBody>
    </MessageBar>
  );
}
