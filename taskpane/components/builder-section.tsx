// Formula builder generated from functions.json / functions-ja.json: one field per parameter, lists for
// accepted values, company and item search, a result preview from the cache, insert into an empty cell.

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  Button,
  Combobox,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  Select,
  Spinner,
  Text,
} from "@fluentui/react-components";
import { usePane, useSectionShown } from "../pane-context";
import { useTask } from "../hooks/use-task";
import {
  insertFormulaIfEmpty,
  readActiveCell,
  writeBackFormula,
  writeFormulaAt,
} from "../excel/formula-cell";
import { parseBuilderFormula } from "../state/formula-parse";
import { UserMessageError } from "../error-text";
import { optional, type Translator } from "../i18n/messages";
import { FIELD_DICTIONARY } from "../../src/contract/generated/fields";
import { datasetNames, resolveName } from "../../src/excel/field-names";
import {
  builderArgs,
  builderFormula,
  choiceDefault,
  exampleValues,
  loadBuilderCatalogue,
  missingArgs,
  type BuilderFunction,
  type BuilderParam,
} from "../state/function-catalogue";
import {
  previewCellText,
  previewFormula,
  resolvedFinancial,
  type PreviewOutcome,
} from "../state/formula-preview";
import { CompanyPicker } from "./company-picker";
import { MetricPicker, metricText } from "./metric-picker";
import { StatusMessage } from "./status-message";

/**
 * The builder's label for a parameter: its Japanese/English name, the key as a fallback.
 * @internal Tests check the builder's labels directly.
 */
export function paramName(t: Translator, name: string): string {
  return optional(t, `arg_${name}`, optional(t, `param_${name}`, name));
}

/**
 * A value of a list as the user reads it ("通期", "最新期", "見出し行"), the value itself otherwise.
 * @internal Tests check the builder's choice texts directly.
 */
export function choiceText(t: Translator, param: string, value: string): string {
  if (param === "dataset") return optional(t, `ds_${value}`, value);
  return optional(t, `opt_${param}_${value}`, optional(t, `opt_${value}`, value));
}

/**
 * What the item box shows for the formula's item: a key or a name the function reads (`売上高`,
 * `operatingProfit`) as that item; any other text as typed, with the nearest item the function
 * would suggest (field-names.ts nearestName: `salez` -> sales), so opening a formula whose item
 * is wrong loses nothing and offers the fix.
 * @internal Tests check what the builder offers for a typed item.
 */
export function itemChoice(
  dataset: "financials",
  typed: string,
): { key: string } | { unknown: string; suggestion?: { key: string; label?: string } } {
  if (typed === "" || typed.startsWith("=")) return { key: typed };
  const match = resolveName(typed, datasetNames(dataset));
  if (match.ok) return { key: match.key };
  if (match.reason === "unknown" && match.suggestion)
    return { unknown: typed, suggestion: match.suggestion };
  return { unknown: typed };
}

/** Wait after the last change before reading the cache for the preview. */
const PREVIEW_DEBOUNCE_MS = 250;
/** Rows and columns of a table result shown in the preview. */
const PREVIEW_ROWS = 4;
const PREVIEW_COLS = 4;

/**
 * One parameter's field: a company or item search, a list, or a text box.
 * @internal Tests render one field as the builder shows it.
 */
export function ParamInput(props: {
  fn: BuilderFunction;
  param: BuilderParam;
  value: string;
  onChange: (v: string) => void;
}) {
  const { t } = usePane();
  const { param } = props;
  const testId = `builder-arg-${param.name}`;
  const name = paramName(t, param.name);
  const label = param.optional ? t("builderOptionalLabel", { name }) : name;
  const kind = param.kind;
  // A list's description names its values by their API words ("annual（既定）、quarterly…"): the
  // field shows the values in the user's language and says which one an empty field means.
  const defaultValue = choiceDefault(param);
  const hint =
    kind.type === "choice" && !kind.freeform
      ? defaultValue === undefined
        ? null
        : t("builderDefaultIs", { value: choiceText(t, param.name, defaultValue) })
      : param.description[t.lang];
  if (kind.type === "company") {
    return (
      <CompanyPicker
        testId={testId}
        label={label}
        hint={param.description[t.lang]}
        value={props.value}
        required={!param.optional}
        allowEdinet={kind.edinet}
        onChange={props.onChange}
      />
    );
  }
  if (kind.type === "item") {
    const fields = FIELD_DICTIONARY[kind.dataset];
    const item = itemChoice(kind.dataset, props.value);
    const suggestion = "unknown" in item ? item.suggestion : undefined;
    const suggestionName = suggestion
      ? metricText({ key: suggestion.key, label: suggestion.label ?? suggestion.key }, t.lang)
      : "";
    const suggestionText = suggestion
      ? t.lang === "ja"
        ? `${suggestionName}（${suggestion.key}）`
        : `${suggestionName} (${suggestion.key})`
      : "";
    return (
      <Field
        label={label}
        required={!param.optional}
        hint={t("builderItemHint")}
        validationState={"unknown" in item ? "warning" : "none"}
        validationMessage={
          "unknown" in item ? (
            <span data-testid={`${testId}-unknown`} data-suggestion={suggestion?.key ?? ""}>
              {suggestion
                ? t("builderItemUnknown", { typed: item.unknown, item: suggestionText })
                : t("builderItemUnknownNone", { typed: item.unknown })}
              {suggestion && (
                <Button
                  size="small"
                  appearance="subtle"
                  data-testid={`${testId}-use-suggestion`}
                  onClick={() => props.onChange(suggestion.key)}
                >
                  {t("builderItemUse", { item: suggestionText })}
                </Button>
              )}
            </span>
          ) : null
        }
      >
        <MetricPicker
          testId={testId}
          ariaLabel={label}
          fields={fields}
          lang={t.lang}
          selected={"key" in item ? item.key : item.unknown}
          placeholder={t("builderItemSearch")}
          onSelect={props.onChange}
        />
      </Field>
    );
  }
  if (kind.type === "choice" && kind.freeform) {
    const known = kind.options.includes(props.value);
    return (
      <Field label={label} required={!param.optional} hint={hint}>
        <Combobox
          data-testid={testId}
          aria-label={label}
          freeform
          placeholder={t("builderDefault")}
          value={known ? choiceText(t, param.name, props.value) : props.value}
          selectedOptions={known ? [props.value] : []}
          onChange={(e) => props.onChange(e.target.value)}
          onOptionSelect={(_, d) => props.onChange(d.optionValue ?? "")}
        >
          {kind.options.map((o) => (
            <Option
              key={o}
              value={o}
              text={choiceText(t, param.name, o)}
              data-testid={`${testId}-option-${o}`}
            >
              {choiceText(t, param.name, o)}
            </Option>
          ))}
        </Combobox>
      </Field>
    );
  }
  if (kind.type === "choice") {
    return (
      <Field label={label} required={!param.optional} hint={hint}>
        <Select
          data-testid={testId}
          aria-label={label}
          value={props.value}
          onChange={(_, d) => props.onChange(d.value)}
        >
          <option value="">
            {!param.optional
              ? t("selectPlaceholder")
              : defaultValue === undefined
                ? t("builderDefault")
                : t("builderDefaultIs", { value: choiceText(t, param.name, defaultValue) })}
          </option>
          {kind.options.map((o) => (
            <option key={o} value={o}>
              {choiceText(t, param.name, o)}
            </option>
          ))}
        </Select>
      </Field>
    );
  }
  return (
    <Field label={label} required={!param.optional} hint={hint}>
      <Input
        data-testid={testId}
        aria-label={label}
        value={props.value}
        {...(kind.type === "number" ? { inputMode: "numeric" as const } : {})}
        onChange={(_, d) => props.onChange(d.value)}
      />
    </Field>
  );
}

function PreviewView(props: {
  outcome: PreviewOutcome | undefined;
  busy: boolean;
  pending: boolean;
}) {
  const { t } = usePane();
  const o = props.outcome;
  let body: React.ReactNode = null;
  let state = "none";
  if (props.busy) {
    state = "busy";
    body = <Spinner size="extra-tiny" label={t("builderPreviewing")} />;
  } else if (props.pending) {
    state = "pending";
    body = "…";
  } else if (!o) {
    body = t("builderPreviewIncomplete");
  } else if (o.kind === "value") {
    state = "value";
    const rows = o.rows.slice(0, PREVIEW_ROWS).map((r) => r.slice(0, PREVIEW_COLS));
    const more = o.rows.length > PREVIEW_ROWS || (o.rows[0]?.length ?? 0) > PREVIEW_COLS;
    body = (
      <>
        <table className="kaisha-preview-grid">
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) => (
                  <td key={j}>{previewCellText(c, t.lang)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {more && (
          <Text size={200}>
            {t("builderPreviewMore", { rows: o.rows.length, cols: o.rows[0]?.length ?? 0 })}
          </Text>
        )}
      </>
    );
  } else if (o.kind === "error") {
    state = "error";
    body = `${o.code} ${o.message}`;
  } else if (o.kind === "no_key") {
    state = "no_key";
    body = t("keyMissingInPane");
  } else if (o.kind === "not_cached") {
    state = "not_cached";
    body = t("builderPreviewNotCached");
  } else {
    state = "needs_cells";
    body = t("builderPreviewNeedsCells");
  }
  return (
    <div data-testid="builder-result" data-state={state} role="status" aria-live="polite">
      {body}
    </div>
  );
}

export function BuilderSection(props: { catalogue?: readonly BuilderFunction[] }) {
  const { t, excel, session, bump } = usePane();
  const task = useTask(t);
  const [catalogue, setCatalogue] = useState<readonly BuilderFunction[] | undefined>(
    props.catalogue,
  );
  const [loadError, setLoadError] = useState<string | undefined>();
  const [name, setName] = useState("FINANCIAL");
  const [values, setValues] = useState<Record<string, string>>({});
  // The preview belongs to one formula text: an answer for an older text is never shown.
  const [result, setResult] = useState<{ formula: string; outcome: PreviewOutcome } | undefined>();
  const [previewBusy, setPreviewBusy] = useState(false);
  const [overwrite, setOverwrite] = useState<{ address: string; content: string } | undefined>();
  // The cell the builder was opened on (its KAISHA formula is in the form): Update writes there.
  const [editing, setEditing] = useState<string | undefined>();
  // The selected cell last looked at, so coming back to the tab does not undo edits in progress.
  const lastSeen = useRef<string | undefined>(undefined);
  const [resolved, setResolved] = useState<{ formula: string; text: string } | undefined>();
  const shown = useSectionShown();

  useEffect(() => {
    if (props.catalogue) return;
    loadBuilderCatalogue((url) => fetch(url, { cache: "no-store" }))
      .then(setCatalogue)
      .catch((err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)));
  }, [props.catalogue]);

  const fn = catalogue?.find((f) => f.name === name) ?? catalogue?.[0];
  const formula = fn ? builderFormula(fn, values) : "";
  const missing = fn ? missingArgs(fn, values) : [];
  const args = useMemo(() => (fn ? builderArgs(fn, values) : []), [fn, values]);
  const outcome = result?.formula === formula ? result.outcome : undefined;
  const previewPending = missing.length === 0 && outcome === undefined;

  // The live preview: the function itself, reading the cache only (no request).
  useEffect(() => {
    setOverwrite(undefined);
    if (!fn || missing.length > 0) return;
    let live = true;
    const text = formula;
    const timer = setTimeout(() => {
      void previewFormula(fn.name, args, true).then(
        (o) => live && setResult({ formula: text, outcome: o }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // formula text stands for fn + args
  }, [formula, session]);

  // What the formula resolves to ("2025年3月期 売上高 41.7兆円"), once its value is at hand.
  useEffect(() => {
    if (!fn || outcome?.kind !== "value") return;
    let live = true;
    const text = formula;
    void resolvedFinancial(fn.name, args, t.lang).then((r) => {
      if (live) setResolved(r === undefined ? undefined : { formula: text, text: r });
    });
    return () => {
      live = false;
    };
    // formula text stands for fn + args
  }, [formula, outcome, t.lang]);
  const resolvedText = resolved?.formula === formula ? resolved.text : undefined;

  /**
   * Opens the selected cell's KAISHA formula in the form. `always`: the user asked; else
   * only when the selection changed since the last look (the tab shown again keeps edits).
   */
  const openSelectedCell = useCallback(
    async (always: boolean) => {
      if (!catalogue || !excel) return;
      const cell = await readActiveCell().catch(() => undefined);
      if (!cell) return;
      const seen = `${cell.address}\u0000${cell.formula}`;
      if (!always && seen === lastSeen.current) return;
      lastSeen.current = seen;
      const parsed = parseBuilderFormula(cell.formula, catalogue);
      if (typeof parsed !== "string") {
        setName(parsed.name);
        setValues(parsed.values);
        setEditing(cell.address);
        task.setMessage(undefined);
        return;
      }
      setEditing(undefined);
      if (!always && parsed === "not_kaisha") return;
      const key =
        parsed === "not_kaisha"
          ? "builderCellNotKaisha"
          : parsed === "not_one_call"
            ? "builderCellNotOneCall"
            : "builderCellUnknown";
      task.setMessage({ intent: "info", text: t(key, { address: cell.address }) });
    },
    [catalogue, excel, t, task],
  );
  useEffect(() => {
    if (shown) void openSelectedCell(false);
    // on showing the tab (and once the catalogue is loaded)
  }, [shown, catalogue]);

  const fetchPreview = async () => {
    if (!fn) return;
    setPreviewBusy(true);
    try {
      const text = formula;
      setResult({ formula: text, outcome: await previewFormula(fn.name, args, false) });
      bump();
    } finally {
      setPreviewBusy(false);
    }
  };

  if (!catalogue || !fn) {
    return (
      <div className="kaisha-section">
        <Text as="h2" weight="semibold" size={400}>
          {t("builderTitle")}
        </Text>
        {loadError ? (
          <StatusMessage
            message={{ intent: "error", text: t("builderLoadFailed", { message: loadError }) }}
            testId="builder-message"
          />
        ) : (
          <Spinner data-testid="builder-loading" size="small" label={t("builderLoading")} />
        )}
      </div>
    );
  }

  const checkMissing = () => {
    if (missing.length)
      throw new UserMessageError(
        t("builderMissing", { list: missing.map((m) => paramName(t, m)).join("、") }),
      );
  };

  const insert = () =>
    task.run(async () => {
      checkMissing();
      const r = await insertFormulaIfEmpty(formula);
      if (!r.written) {
        setOverwrite({ address: r.address, content: r.content });
        return undefined;
      }
      return { intent: "success", text: t("formulaInserted", { address: r.address }) };
    });

  const writeBack = (address: string) =>
    task.run(async () => {
      checkMissing();
      const r = await writeBackFormula(address, formula);
      if (!r.written) {
        setOverwrite({ address: r.address, content: r.content });
        return undefined;
      }
      lastSeen.current = undefined;
      return { intent: "success", text: t("builderWrittenBack", { address: r.address }) };
    });

  const confirmOverwrite = (address: string) =>
    task.run(async () => {
      setOverwrite(undefined);
      const written = await writeFormulaAt(address, formula);
      return { intent: "success", text: t("formulaInserted", { address: written }) };
    });

  return (
    <div className="kaisha-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("builderTitle")}
      </Text>
      <Button
        data-testid="builder-load-cell"
        size="small"
        appearance="secondary"
        disabled={task.running || !excel}
        onClick={() => void openSelectedCell(true)}
      >
        {t("builderLoadCell")}
      </Button>
      {editing && (
        <Text size={200} data-testid="builder-editing" data-address={editing}>
          {t("builderEditing", { address: editing })}
        </Text>
      )}
      <Field label={t("builderFunction")}>
        <Select
          data-testid="builder-function-select"
          value={fn.name}
          onChange={(_, d) => {
            setName(d.value);
            setValues({});
            setEditing(undefined);
            task.setMessage(undefined);
          }}
        >
          {catalogue.map((f) => (
            <option key={f.name} value={f.name}>
              KAISHA.{f.name}
            </option>
          ))}
        </Select>
      </Field>
      <Text data-testid="builder-description" size={200}>
        {fn.description[t.lang]}
      </Text>
      {fn.params.map((p) => (
        <ParamInput
          key={`${fn.name}-${p.name}`}
          fn={fn}
          param={p}
          value={values[p.name] ?? ""}
          onChange={(v) => setValues((was) => ({ ...was, [p.name]: v }))}
        />
      ))}
      <Text size={200} className="kaisha-hint" data-testid="builder-ref-hint">
        {t("builderRefHint")}
      </Text>
      {fn.params.some((p) => !p.optional) && (
        <Button
          data-testid="builder-use-example"
          size="small"
          appearance="subtle"
          onClick={() => setValues(exampleValues(fn))}
        >
          {t("builderUseExample", { fn: fn.name })}
        </Button>
      )}
      <Field label={t("builderResult")}>
        <PreviewView outcome={outcome} busy={previewBusy} pending={previewPending} />
      </Field>
      {resolvedText && (
        <Field label={t("builderResolved")}>
          <Text weight="semibold" data-testid="builder-resolved">
            {resolvedText}
          </Text>
        </Field>
      )}
      {/* The formula, the buttons and what they did stay at the pane's foot while the fields above
          scroll (at 320 px the fields' hints alone are a screen or more). */}
      <div
        className="kaisha-builder-bar"
        data-testid="builder-bar"
        role="region"
        aria-label={t("builderBarLabel")}
      >
        <Field label={t("formulaLabel")}>
          <code data-testid="builder-formula-preview" className="kaisha-formula">
            {formula}
          </code>
        </Field>
        <div className="kaisha-row">
          {editing && (
            <Button
              data-testid="builder-write-back"
              appearance="primary"
              disabled={task.running || !excel}
              onClick={() => void writeBack(editing)}
            >
              {t("builderWriteBack", { address: editing })}
            </Button>
          )}
          <Button
            data-testid="builder-insert"
            appearance={editing ? "secondary" : "primary"}
            disabled={task.running || !excel}
            onClick={() => void insert()}
          >
            {t("builderInsert")}
          </Button>
          {outcome?.kind === "not_cached" && (
            <Button
              data-testid="builder-fetch-preview"
              disabled={previewBusy}
              onClick={() => void fetchPreview()}
            >
              {t("builderFetchPreview")}
            </Button>
          )}
        </div>
        {overwrite && (
          <MessageBar intent="warning" data-testid="builder-overwrite" role="alert">
            <MessageBarBody>
              {t("builderOverwriteAsk", { address: overwrite.address, content: overwrite.content })}
            </MessageBarBody>
            <MessageBarActions>
              <Button
                size="small"
                data-testid="builder-overwrite-confirm"
                onClick={() => void confirmOverwrite(overwrite.address)}
              >
                {t("builderOverwriteYes", { address: overwrite.address })}
              </Button>
              <Button
                size="small"
                appearance="subtle"
                data-testid="builder-overwrite-cancel"
                onClick={() => {
                  setOverwrite(undefined);
                  task.setMessage({ intent: "info", text: t("builderOverwriteNo") });
                }}
              >
                {t("builderOverwriteKeep", { address: overwrite.address })}
              </Button>
            </MessageBarActions>
          </MessageBar>
        )}
        <StatusMessage message={task.message} testId="builder-message" />
      </div>
    </div>
  );
}
