// Follows the current key's send state (src/client/send-state.ts): held by the daily limit or a refused key, or sending.

import { useEffect, useState } from "react";
import type { SendState } from "../../src/client";
import type { PaneSession } from "../pane-session";

/** A daily hold lifts by itself at its JST midnight: looked at again this often. @unit ms */
const TICK_MS = 30_000;

export function useSendState(session: PaneSession): SendState | undefined {
  const [state, setState] = useState<SendState | undefined>(() => session.client().sendState?.());
  // A key saved or the server changed: another key's state, perhaps another client.
  const [clientRev, setClientRev] = useState(0);
  useEffect(() => session.onChange(() => setClientRev((r) => r + 1)), [session]);
  useEffect(() => {
    const client = session.client();
    const update = () => setState(client.sendState?.());
    update();
    const off = client.onSendStateChange?.(update);
    const timer = setInterval(update, TICK_MS);
    return () => {
      off?.();
      clearInterval(timer);
    };
  }, [session, clientRev]);
  return state;
}
