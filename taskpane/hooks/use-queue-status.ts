// Follows the shared client's pacer queue: pushed changes, plus a one-second tick while something waits.

import { useEffect, useState } from "react";
import type { PaneSession } from "../pane-session";
import type { PaneQueueStatus } from "../state/pane-client";
import { EMPTY_QUEUE, queueVisible } from "../state/queue-model";

const TICK_MS = 1_000;

export function useQueueStatus(session: PaneSession): PaneQueueStatus {
  const [status, setStatus] = useState<PaneQueueStatus>(EMPTY_QUEUE);
  const [clientRev, setClientRev] = useState(0);
  // Another server or key gives another client object: follow the new one.
  useEffect(() => session.onChange(() => setClientRev((r) => r + 1)), [session]);
  useEffect(() => {
    const client = session.client();
    if (typeof client.onQueueChange !== "function") return undefined;
    setStatus(client.queueStatus());
    return client.onQueueChange(setStatus);
  }, [session, clientRev]);
  const active = queueVisible(status, Date.now()) || status.inFlight > 0;
  // The estimate counts down between changes.
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setStatus(session.client().queueStatus()), TICK_MS);
    return () => clearInterval(timer);
  }, [active, session]);
  return status;
}
