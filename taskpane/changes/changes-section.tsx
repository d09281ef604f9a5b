// The Changes view: per update, the cells of this workbook whose values changed, grouped by the
// filing or price day that brought them, restatements called out; a click goes to the cell (a
// lazily loaded chunk of the pane: app.tsx).

import { useEffect, useState } from "react";
import { Button, Link, MessageBar, MessageBarBody, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import type { MessageKey, Translator } from "../i18n/messages";
import { selectCell } from "../excel/formulas";
import { writeChangeLogSheet } from "../excel/change-log-sheet";
import { openInBrowser } from "../components/help-link";
import type { ChangeGroup, ChangeKind, LoggedUpdate, UpdateTrigger } from "./change-diff";
import { clearLog, readLog } from "./change-log";
import { onUpdateLogged } from "./record-update";
import { setChangesLanguage, workbookName } from "./pane-recorder";

const TRIGGER_KEY: Record<UpdateTrigger, MessageKey> = {
  revalidation: "changesTriggerRevalidation",
  refresh: "changesTriggerRefresh",
  update: "changesTriggerUpdate",
  recalculation: "changesTriggerRecalculation",
};

const KIND_KEY: Record<ChangeKind, MessageKey> = {
  new_period: "changesKindNewPeriod",
  restatement: "changesKindRestatement",
  new_price_day: "changesKindPriceDay",
  changed: "changesKindChanged",
};

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function shown(v: unknown, t: Translator): string {
  if (typeof v === "number")
    return v.toLocaleString(t.lang === "ja" ? "ja-JP" : "en-US", { maximumFractionDigits: 6 });
  return v === null || v === undefined || v === "" ? "—" : String(v);
}

/** Inline styles: the view's own, so the pane's start-up page (taskpane.html) carries none of them. */
const LIST = { listStyle: "none", margin: "4px 0", padding: 0 } as const;
const ITEM = {
  padding: "4px 0",
  borderBottom: "1px solid #edebe9",
  overflowWrap: "anywhere",
} as const;

function Group(props: { group: ChangeGroup; t: Translator }) {
  const { group: g, t } = props;
  const title = t(KIND_KEY[g.kind], { label: g.label ?? "" });
  const filing = g.filing;
  return (
    <div
      className="kaisha-change-group"
      data-testid="changes-group"
      data-kind={g.kind}
      data-company={g.company ?? ""}
    >
      <Text weight="semibold">{`${g.company ? `${g.company} · ` : ""}${title}`}</Text>
      {g.kind === "restatement" && (
        <MessageBar intent="warning" data-testid="changes-restatement">
          <MessageBarBody>{t("changesRestatementNote")}</MessageBarBody>
        </MessageBar>
      )}
      {filing && (
        <div>
          {filing.url ? (
            <Link
              href={filing.url}
              data-testid="changes-filing"
              onClick={(e) => {
                e.preventDefault();
                if (filing.url) openInBrowser(filing.url);
              }}
            >
              {`${filing.date} ${filing.title} · ${filing.doc_id}`}
            </Link>
          ) : (
            <span data-testid="changes-filing">{`${filing.date} ${filing.title} · ${filing.doc_id}`}</span>
          )}
        </div>
      )}
      {/* One item per cell, two short lines: readable at 320 px, where a five-column table is not. */}
      <ul style={LIST}>
        {g.cells.map((c) => {
          const address = `${c.sheet}!${c.address}`;
          const what = [c.item, c.period].filter((x) => x).join(" · ");
          return (
            <li
              key={address}
              style={ITEM}
              data-testid="changes-cell"
              data-address={address}
              data-old={c.old === null || c.old === undefined ? "" : String(c.old)}
              data-new={c.new === null || c.new === undefined ? "" : String(c.new)}
            >
              <Link
                as="button"
                aria-label={t("changesGoTo", { address })}
                onClick={() => void selectCell(c.sheet, c.address).catch(() => undefined)}
              >
                {address}
              </Link>
              {what ? ` · ${what}` : ""}
              <div>
                {`${shown(c.old, t)} → ${shown(c.new, t)}${
                  c.pct === undefined ? "" : ` (${c.pct >= 0 ? "+" : ""}${c.pct.toFixed(1)}%)`
                }`}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Update(props: { update: LoggedUpdate; t: Translator }) {
  const { update: u, t } = props;
  const n = u.groups.reduce((s, g) => s + g.cells.length, 0) + u.more;
  const time = new Date(u.at).toLocaleString(t.lang === "ja" ? "ja-JP" : "en-US", {
    timeZone: "Asia/Tokyo",
  });
  return (
    <article className="kaisha-change-update" data-testid="changes-update" data-trigger={u.trigger}>
      <Text as="h3" weight="semibold" size={300}>
        {t("changesUpdate", { time, trigger: t(TRIGGER_KEY[u.trigger]), n })}
      </Text>
      {u.groups.map((g, i) => (
        <Group key={i} group={g} t={t} />
      ))}
      {u.more > 0 && <Text size={200}>{t("changesMore", { n: u.more })}</Text>}
    </article>
  );
}

/** The Changes section: the workbook's log, reloaded as updates are logged. */
export default function ChangesSection() {
  const { t, excel } = usePane();
  const [log, setLog] = useState<LoggedUpdate[]>(() => readLog(storage(), workbookName()));
  const [message, setMessage] = useState<string | undefined>();

  useEffect(() => {
    setChangesLanguage(t.lang);
  }, [t.lang]);
  useEffect(() => onUpdateLogged(() => setLog(readLog(storage(), workbookName()))), []);

  const sheet = t("changesSheetName");
  const write = async () => {
    const header = [
      t("changesColUpdate"),
      t("changesColTime"),
      t("changesColKind"),
      t("changesColCompany"),
      t("changesColFor"),
      t("changesColFiling"),
      t("changesColSheet"),
      t("changesColCell"),
      t("changesColItem"),
      t("changesColPeriod"),
      t("changesColOld"),
      t("changesColNew"),
      t("changesColPct"),
    ];
    const kind = Object.fromEntries(
      Object.entries(KIND_KEY).map(([k, key]) => [
        k,
        t(key, { label: "" }).replace(/[:：]\s*$/, ""),
      ]),
    );
    try {
      const n = await writeChangeLogSheet(log, { sheet, header, kind });
      setMessage(n > 0 ? t("changesWritten", { n, sheet }) : t("changesNothingToWrite", { sheet }));
    } catch (err) {
      setMessage(
        t("errorUnexpected", { message: err instanceof Error ? err.message : String(err) }),
      );
    }
  };

  return (
    <section className="kaisha-section" data-testid="changes-section" aria-label={t("navChanges")}>
      <Text as="h2" weight="semibold" size={400}>
        {t("navChanges")}
      </Text>
      <div className="kaisha-row">
        <Button
          data-testid="changes-write"
          disabled={!excel || log.length === 0}
          onClick={() => void write()}
        >
          {t("changesWriteSheet")}
        </Button>
        <Button
          data-testid="changes-clear"
          disabled={log.length === 0}
          onClick={() => {
            clearLog(storage(), workbookName());
            setLog([]);
          }}
        >
          {t("changesClear")}
        </Button>
      </div>
      {message !== undefined && (
        <MessageBar intent="info" data-testid="changes-message">
          <MessageBarBody>{message}</MessageBarBody>
        </MessageBar>
      )}
      {log.length === 0 ? (
        <Text data-testid="changes-empty">{t("changesEmpty")}</Text>
      ) : (
        log.map((u) => <Update key={u.id} update={u} t={t} />)
      )}
    </section>
  );
}
