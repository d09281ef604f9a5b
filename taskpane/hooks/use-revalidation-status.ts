// Follows the shared client's background revalidation queue (pushed changes, a tick while it runs).

import { useEffect, useState } from "react";
import type { RevalidationStatus } from "../../src/client";
import type { PaneSession } from "../pane-session";
import { EMPTY_REVALIDATION, revalidationVisible } from "../state/revalidation-model";

const TICK_MS = 5_000;

export function useRevalidationStatus(session: PaneSession): RevalidationStatus {
  const [status, setStatus] = useState<RevalidationStatus>(
    () => session.client().revalidation?.().status() ?? EMPTY_REVALIDATION,
  );
  const [clientRev, setClientRev] = useState(0);
  useEffect(() => session.onChange(() => setClientRev((r) => r + 1)), [session]);
  useEffect(() => {
    const queue = session.client().revalidation?.();
    if (queue === undefined) return undefined;
    setStatus(queue.status());
    return queue.onStatus(setStatus);
  }, [session, clientRev]);
  const active = revalidationVisible(status);
  // The time left counts down between changes; a new JST day lifts a spent budget.
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => {
      const queue = session.client().revalidation?.();
      if (queue !== undefined) setStatus(queue.status());
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [active, session]);
  return status;
}
