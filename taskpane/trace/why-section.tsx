// "Why this number": the selected KAISHA cell traced to its period, filing and qualifiers (a lazily
// loaded chunk of the pane: app.tsx).

import { useEffect, useRef, useState } from "react";
import { Button, Link, MessageBar, MessageBarBody, Text } from "@fluentui/react-components";
import { usePane, useSectionShown } from "../pane-context";
import type { MessageKey, Translator } from "../i18n/messages";
import { readSelectedKaishaCell } from "../excel/kaisha-values";
import { followSelection } from "../excel/selection-watch";
import { readableAmount } from "../state/resolved-text";
import { openInBrowser } from "../components/help-link";
import type { SecurityDisclosuresResponse } from "../../src/contract";
import { getClient } from "../../src/session";
import { traceCell } from "./resolve-trace";
import { heldListings, heldPriceOnOrBefore, storedAnswer } from "./stored-answer";
import { namesFromListings } from "./company-trace";
import { rerunFromMemory } from "./rerun";
import { xbrlQuery } from "./xbrl-fact";
import type { CellTrace, FilingRef, Qualifier, UnsupportedReason } from "./trace-model";

/** Remaining requests today under which the disclosures list is asked only on the analyst's click. */
const LOW_REMAINING = 100;
/** Quiet time after a selection change before it is explained. @unit ms */
const SELECTION_PAUSE_MS = 300;

function num(v: number, t: Translator): string {
  return v.toLocaleString(t.lang === "ja" ? "ja-JP" : "en-US", { maximumFractionDigits: 4 });
}

function qualifierText(q: Qualifier, t: Translator, unit: string | undefined): string {
  const amount = (v: number) => readableAmount(v, unit, t.lang);
  switch (q.code) {
    case "standard":
      return t("whyQStandard", { standard: q.standard });
    case "consolidation":
      return t(q.consolidated ? "whyQConsolidated" : "whyQNonConsolidated");
    case "scope_exception":
      return t("whyQScope", {
        scope: t(q.consolidated ? "whyScopeConsolidated" : "whyScopeParent"),
      });
    case "standard_exception":
      return t("whyQStandardException", {
        standard: q.standard,
        periodStandard: q.periodStandard,
      });
    case "jgaap_only":
      return t("whyQJgaapOnly", { standard: q.standard });
    case "derived_h2":
      return t("whyQH2", { full: amount(q.fullYear), h1: amount(q.h1), value: amount(q.value) });
    case "derived_ltm":
      return t("whyQLtm", {
        parts: q.parts.map((p) => `${p.label} ${amount(p.value)}`).join(" + "),
        value: amount(q.value),
      });
    case "ltm_balance":
      return t("whyQLtmBalance", { label: q.label });
    case "as_reported_per_share":
      return t("whyQAsReported");
    case "split_adjusted":
      return t("whyQSplitAdjusted");
    case "ltm_estimate":
      return t("whyQLtmEstimate", { previous: q.previous, months: q.months });
    case "per_source":
      return t(q.source === "computed" ? "whyQPerComputed" : "whyQPerReported");
    case "segment_basis":
      return t("whyQSegmentBasis", {
        basis:
          q.basis === "disclosed"
            ? t("whyBasisDisclosed")
            : q.basis === "derived_from_cumulative"
              ? t("whyBasisCumulative")
              : q.basis === "derived_upstream"
                ? t("whyBasisUpstream")
                : q.basis,
      });
  }
}

function FilingLink(props: { filing: FilingRef; t: Translator }) {
  const { filing: f, t } = props;
  const text = `${f.date} ${f.title}${f.correction ? `（${t("whyCorrection")}）` : ""} · ${f.doc_id}`;
  if (f.url === undefined) return <span data-testid="why-filing">{text}</span>;
  const url = f.url;
  return (
    <Link
      href={url}
      data-testid="why-filing"
      data-correction={f.correction ? "true" : "false"}
      aria-label={t("whyOpen", { title: f.title })}
      onClick={(e) => {
        e.preventDefault();
        openInBrowser(url);
      }}
    >
      {text}
    </Link>
  );
}

function Source(props: { trace: CellTrace; t: Translator }) {
  const { trace, t } = props;
  const s = trace.source;
  if (s === undefined) return null;
  if (s.kind === "price")
    return (
      <span data-testid="why-price">
        {s.exchange === ""
          ? t("whyPriceDay", { date: s.date })
          : t("whyPrice", { exchange: s.exchange, date: s.date })}
      </span>
    );
  if (s.kind === "refs")
    return (
      <div>
        <Text size={200}>{t("whyRefs")}</Text>
        <ul className="kaisha-list">
          {s.refs.map((r) => (
            <li key={r.doc_id}>
              {r.filing ? (
                <FilingLink filing={r.filing} t={t} />
              ) : (
                <span data-testid="why-ref">{`${r.doc_id} (${r.source})`}</span>
              )}
            </li>
          ))}
        </ul>
      </div>
    );
  if (s.filings.length === 0)
    return s.disclosuresCached ? <span data-testid="why-no-filing">{t("whyNoFiling")}</span> : null;
  return (
    <ul className="kaisha-list">
      {s.filings.map((f) => (
        <li key={f.doc_id}>
          <FilingLink filing={f} t={t} />
        </li>
      ))}
    </ul>
  );
}

/** Inline styles: the view's own, so the pane's start-up page (taskpane.html) carries none of them. */
const DL = { margin: 0 } as const;
const DT = { fontWeight: 600, fontSize: 12, marginTop: 6 } as const;
const DD = { margin: 0, overflowWrap: "anywhere", wordBreak: "break-word" } as const;

function Row(props: { id: string; label: string; children: React.ReactNode }) {
  return (
    <>
      <dt style={DT}>{props.label}</dt>
      <dd style={DD} data-testid={props.id}>
        {props.children}
      </dd>
    </>
  );
}

function fetchedText(trace: CellTrace, t: Translator): string {
  const f = trace.fetch;
  if (f === undefined) return t("whyStateUnknown");
  const state =
    f.state === "current"
      ? t("whyStateCurrent")
      : f.state === "stale"
        ? t("whyStateStale", { why: f.why ?? "" })
        : f.state === "due"
          ? t("whyStateDue")
          : t("whyStateUnknown");
  if (f.storedAt === undefined) return state;
  const at = new Date(f.storedAt).toLocaleString(t.lang === "ja" ? "ja-JP" : "en-US", {
    timeZone: "Asia/Tokyo",
  });
  return `${at} · ${state}`;
}

/** The filing's XBRL facts for the figure, or the click that reads them (its cost stated). */
function XbrlFact(props: { trace: CellTrace; t: Translator; onAsk: (docId: string) => void }) {
  const { trace, t } = props;
  const x = trace.xbrl;
  if (x === undefined) return null;
  if (x.state === "askable")
    return (
      <div data-testid="why-xbrl-askable">
        <Text size={200}>{t("whyXbrlAskable", { title: x.title, doc: x.doc_id })}</Text>{" "}
        <Button size="small" data-testid="why-xbrl-ask" onClick={() => props.onAsk(x.doc_id)}>
          {t("whyXbrlAsk")}
        </Button>
      </div>
    );
  if (x.facts.length === 0)
    return (
      <span data-testid="why-xbrl-none">
        {t("whyXbrlNone", { title: x.title, doc: x.doc_id })}
        {/Q[234]/.test(trace.period?.quarter ?? "") ? ` ${t("whyXbrlCumulative")}` : ""}
      </span>
    );
  return (
    <div>
      <ul className="kaisha-list">
        {x.facts.map((f, i) => (
          <li key={i} data-testid="why-xbrl-fact" data-element={f.element_name}>
            <code style={DD}>{f.element_name}</code>
            {` · ${f.context ?? ""} · ${typeof f.value === "number" ? num(f.value, t) : f.value}${
              f.unit ? ` ${f.unit}` : ""
            }`}
          </li>
        ))}
      </ul>
      <Text size={200}>{t("whyXbrlByValue", { doc: x.doc_id })}</Text>
    </div>
  );
}

/**
 * A trace as the view shows it (the selected cell's, once resolved).
 * @internal Rendered by itself in test/taskpane/changes/views-render.test.tsx.
 */
export function TraceView(props: {
  trace: CellTrace;
  t: Translator;
  onAskXbrl: (docId: string) => void;
}) {
  const { trace, t } = props;
  const unit = trace.item?.unit;
  return (
    <dl style={DL} data-testid="why-trace" data-address={trace.address}>
      <Row id="why-formula" label={t("whyFormula")}>
        <code style={DD}>{trace.formula}</code>
        {trace.anchor !== trace.address ? ` (${trace.anchor})` : ""}
      </Row>
      {trace.company && (
        <Row id="why-company" label={t("whyCompany")}>
          {[trace.company.name, trace.company.code, trace.company.edinet]
            .filter((x) => x !== undefined)
            .join(" · ")}
        </Row>
      )}
      {trace.item && (
        <Row id="why-item" label={t("whyItem")}>
          {`${trace.item.label} (${trace.item.key}${unit ? `, ${unit}` : ""})`}
        </Row>
      )}
      {trace.period && (
        <Row id="why-period" label={t("whyPeriod")}>
          {trace.period.label}
        </Row>
      )}
      {trace.period?.quarters && (
        <Row id="why-quarters" label={t("whyQuarters")}>
          {trace.period.quarters.join(", ")}
        </Row>
      )}
      {trace.moneyUnit && (
        <Row id="why-unit" label={t("whyUnit")}>
          {trace.moneyUnit}
        </Row>
      )}
      {trace.apiValue !== undefined && (
        <Row id="why-api-value" label={t("whyApiValue")}>
          <span data-value={trace.apiValue === null ? "" : String(trace.apiValue)}>
            {typeof trace.apiValue === "number"
              ? `${num(trace.apiValue, t)} (${readableAmount(trace.apiValue, unit, t.lang)})`
              : String(trace.apiValue ?? "—")}
          </span>
        </Row>
      )}
      <Row id="why-shown" label={t("whyShown")}>
        {trace.shown ?? ""}
      </Row>
      {trace.source && (
        <Row id="why-source" label={t("whySource")}>
          <Source trace={trace} t={t} />
        </Row>
      )}
      {trace.xbrl && (
        <Row id="why-xbrl" label={t("whyXbrl")}>
          <XbrlFact trace={trace} t={t} onAsk={props.onAskXbrl} />
        </Row>
      )}
      {trace.qualifiers.length > 0 && (
        <Row id="why-qualifiers" label={t("whyQualifiers")}>
          <ul className="kaisha-list">
            {trace.qualifiers.map((q, i) => (
              <li key={i} data-testid={`why-q-${q.code}`}>
                {qualifierText(q, t, unit)}
              </li>
            ))}
          </ul>
        </Row>
      )}
      <Row id="why-fetched" label={t("whyFetched")}>
        {fetchedText(trace, t)}
      </Row>
      {trace.request && (
        <Row id="why-request" label={t("whyRequest")}>
          <code style={DD}>
            {`${trace.request.endpoint}?${new URLSearchParams(
              Object.entries(trace.request.params).map(([k, v]) => [k, String(v)]),
            ).toString()}`}
          </code>
        </Row>
      )}
    </dl>
  );
}

const UNRESOLVED_KEY = {
  not_kaisha: "whyNotKaisha",
  not_in_memory: "whyNotInMemory",
  unsupported: "whyUnsupported",
  argument: "whyArgument",
} as const;

/** Why a function's cell is not traced to a filing (unsupported.ts), in the view's words. */
const REASON_KEY: Record<UnsupportedReason, MessageKey> = {
  header: "whyReasonHeader",
  market: "whyReasonMarket",
  records: "whyReasonRecords",
  own_fact: "whyReasonOwnFact",
  card: "whyReasonCard",
  margin: "whyReasonMargin",
  usage: "whyReasonUsage",
  average: "whyReasonAverage",
  place: "whyReasonPlace",
};

/** The view's message for a cell it cannot trace: the function's own reason where it has one. */
function unresolvedText(trace: CellTrace, t: Translator): string {
  if (trace.unresolved === "unsupported" && trace.reason !== undefined)
    return t(REASON_KEY[trace.reason], { fn: trace.fn, address: trace.address });
  return t(UNRESOLVED_KEY[trace.unresolved ?? "unsupported"], { address: trace.address });
}

/** The Why this number section: explains the selected cell on the analyst's click. */
export default function WhySection() {
  const { t, excel } = usePane();
  const [trace, setTrace] = useState<CellTrace | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  /** Set when the disclosures list was held back (few requests left): the analyst may ask it. */
  const [askable, setAskable] = useState<number | undefined>();

  /** The XBRL facts of a filing: the one request the analyst asked for, then the cell again. */
  const askXbrl = async (docId: string) => {
    setBusy(true);
    try {
      await getClient().disclosure(xbrlQuery(docId));
    } catch (err) {
      setMessage(
        t("errorUnexpected", { message: err instanceof Error ? err.message : String(err) }),
      );
      setBusy(false);
      return;
    }
    await explain(false);
  };

  const explain = async (allowRequest: boolean) => {
    setBusy(true);
    setMessage(undefined);
    try {
      const cell = await readSelectedKaishaCell();
      if (cell === undefined) {
        setTrace(undefined);
        setMessage(t("whyNotKaisha"));
        return;
      }
      // The shared client itself (session.client() types only what other sections call).
      const client = getClient();
      let heldBack: number | undefined;
      const disclosures = async (
        code: string,
      ): Promise<SecurityDisclosuresResponse | undefined> => {
        const params = { code };
        const cached = client.peek("listSecurityDisclosures", params);
        if (cached !== undefined) return cached;
        // The one request the view may send; asked first when few requests remain today.
        const remaining = client.stats().lastUsageRemaining;
        if (!allowRequest && typeof remaining === "number" && remaining < LOW_REMAINING) {
          heldBack = remaining;
          return undefined;
        }
        return client.securityDisclosures(params);
      };
      const listings = await heldListings();
      const next = await traceCell(
        cell,
        {
          client,
          disclosures,
          stored: storedAnswer,
          names: namesFromListings(listings),
          rerun: rerunFromMemory,
          priceOnOrBefore: heldPriceOnOrBefore,
        },
        t.lang,
      );
      setAskable(heldBack);
      setTrace(next);
      if (next.unresolved !== undefined) setMessage(unresolvedText(next, t));
    } catch (err) {
      setMessage(
        t("errorUnexpected", { message: err instanceof Error ? err.message : String(err) }),
      );
    } finally {
      setBusy(false);
    }
  };

  // While the view is shown, a new selection is explained as it is made (where the host says so).
  const shown = useSectionShown();
  const latest = useRef(explain);
  latest.current = explain;
  useEffect(() => {
    if (!shown || !excel) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let off: (() => void) | undefined;
    let live = true;
    void followSelection(() => {
      // One explanation per pause in the analyst's moves (arrow keys fire one event per cell).
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => void latest.current(false), SELECTION_PAUSE_MS);
    }).then((unsubscribe) => {
      if (live) off = unsubscribe;
      else unsubscribe();
    });
    return () => {
      live = false;
      if (timer !== undefined) clearTimeout(timer);
      off?.();
    };
  }, [shown, excel]);

  return (
    <section className="kaisha-section" data-testid="why-section" aria-label={t("navWhy")}>
      <Text as="h2" weight="semibold" size={400}>
        {t("navWhy")}
      </Text>
      <Text size={200}>{t("whyHint")}</Text>
      <div className="kaisha-row">
        <Button
          appearance="primary"
          data-testid="why-explain"
          disabled={busy || !excel}
          onClick={() => void explain(false)}
        >
          {t("whyExplain")}
        </Button>
      </div>
      {message !== undefined && (
        <MessageBar intent="info" data-testid="why-message">
          <MessageBarBody>{message}</MessageBarBody>
        </MessageBar>
      )}
      {askable !== undefined && (
        <MessageBar intent="warning" data-testid="why-held-back">
          <MessageBarBody>
            {t("whyFilingsNotAsked", { remaining: askable })}{" "}
            <Button size="small" data-testid="why-look-up" onClick={() => void explain(true)}>
              {t("whyLookUpFiling")}
            </Button>
          </MessageBarBody>
        </MessageBar>
      )}
      {trace !== undefined && trace.unresolved === undefined && (
        <TraceView trace={trace} t={t} onAskXbrl={(id) => void askXbrl(id)} />
      )}
    </section>
  );
}
