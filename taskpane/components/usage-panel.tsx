// Usage panel: this session's requests, cache hits, coalesced calls, remaining (/usage), refresh cost,
// and where answers are saved (this computer, or memory only and why).

import { useCallback, useEffect, useState } from "react";
import { Button, Field, ProgressBar, Text } from "@fluentui/react-components";
import { usePane, useSectionShown } from "../pane-context";
import { errorText } from "../error-text";
import { estimateWorkbookRefresh } from "../refresh-runner";
import type { PaneStats } from "../state/pane-client";
import { parseUsage, remainingShare, type Usage } from "../state/usage-model";
import type { Translator } from "../i18n/messages";
import { cacheStorageState, type CacheStorageState } from "../../functions/addin-cache";

const STATS_POLL_MS = 2_000;

const MEMORY_ONLY_REASON = {
  "no-indexeddb": "usageStorage_no_indexeddb",
  "no-compression": "usageStorage_no_compression",
  "open-failed": "usageStorage_open_failed",
  "open-timeout": "usageStorage_open_timeout",
  "write-failed": "usageStorage_write_failed",
} as const;

/** Where answers are saved, in words: a user without a disk cache learns why reopens cost requests. */
function storageText(state: CacheStorageState, t: Translator): string {
  if (state.kind === "disk") return t("usageStorageDisk");
  if (state.kind === "opening") return t("usageStorageOpening");
  return t("usageStorageMemory", { reason: t(MEMORY_ONLY_REASON[state.reason]) });
}

export function UsagePanel() {
  const { t, session, excel, revision } = usePane();
  const [stats, setStats] = useState<PaneStats>(() => session.client().stats());
  const [usage, setUsage] = useState<Usage | undefined>();
  const [cost, setCost] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();

  const reload = useCallback(async () => {
    setError(undefined);
    const client = session.client();
    try {
      const parsed = parseUsage(await client.usage());
      if (parsed) setUsage(parsed);
    } catch (err) {
      setError(errorText(err, t));
    }
    if (excel) {
      try {
        // Distinct requests of the formulas, plus at least one per stored import.
        const e = await estimateWorkbookRefresh();
        setCost(e.formulaRequests + e.imports);
      } catch (err) {
        setError(errorText(err, t));
      }
    }
    setStats(client.stats());
  }, [session, excel, t]);

  // openapi.json getUsage: /usage does not consume the daily limit, so the panel asks on open and
  // after every refresh (revision) instead of showing the count from the last key check.
  const shown = useSectionShown();
  useEffect(() => {
    if (shown) void reload();
  }, [reload, revision, shown]);

  useEffect(() => {
    if (!shown) return;
    setStats(session.client().stats());
    // Counters are local (no request): keep them live while the panel is open.
    const timer = setInterval(() => setStats(session.client().stats()), STATS_POLL_MS);
    return () => clearInterval(timer);
  }, [session, revision, shown]);

  const value = (n: number | null | undefined) =>
    n === undefined || n === null ? t("unknown") : String(n);
  const shownRemaining = usage?.remaining ?? stats.lastUsageRemaining ?? undefined;
  const share = usage ? remainingShare(usage) : undefined;
  // Read on every render: the stats poll re-renders, so "opening" turns into its outcome.
  const storage = cacheStorageState();

  return (
    <div data-testid="usage-panel">
      <Text as="h2" weight="semibold" size={400}>
        {t("usageTitle")}
      </Text>
      {share !== undefined && usage?.dailyLimit !== undefined && (
        <Field
          label={t("usageMeterLabel")}
          hint={t("usageMeter", { n: usage.remaining, limit: usage.dailyLimit })}
          validationState={share < 0.1 ? "warning" : "none"}
        >
          <ProgressBar
            data-testid="usage-meter"
            value={share}
            thickness="large"
            color={share < 0.1 ? "warning" : "brand"}
            aria-valuetext={t("usageMeter", { n: usage.remaining, limit: usage.dailyLimit })}
          />
        </Field>
      )}
      <dl className="kaisha-stats">
        <dt>{t("usageRequests")}</dt>
        <dd data-testid="usage-requests">{stats.requestsSent}</dd>
        <dt>{t("usageCacheHits")}</dt>
        <dd data-testid="usage-cache-hits">{stats.cacheHits}</dd>
        <dt>{t("usageCoalesced")}</dt>
        <dd data-testid="usage-coalesced">{stats.coalesced}</dd>
        <dt>{t("usageRemaining")}</dt>
        <dd data-testid="usage-panel-remaining">{value(shownRemaining)}</dd>
        <dt>{t("usageRefreshCost")}</dt>
        <dd data-testid="usage-refresh-cost">{value(cost)}</dd>
        <dt>{t("usageStorage")}</dt>
        <dd className="kaisha-stats-wide" data-testid="usage-storage" data-kind={storage.kind}>
          {storageText(storage, t)}
        </dd>
      </dl>
      <Button
        data-testid="usage-reload"
        size="small"
        aria-label={t("usageReloadNamed")}
        onClick={() => void reload()}
      >
        {t("usageReload")}
      </Button>
      {error && (
        <Text size={200} data-testid="usage-error" role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
