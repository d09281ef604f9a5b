// Screening form built from /screening/fields: conditions, sector/industry, sort, preview, import, formula.

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  Button,
  Field,
  MessageBar,
  MessageBarBody,
  Input,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useTask, type TaskMessage } from "../hooks/use-task";
import { optional } from "../i18n/messages";
import { EXCEL_IMPORT } from "../excel-import";
import { insertFormula } from "../excel/formulas";
import { runImport, type ImportProgress } from "../state/import-flow";
import {
  CONDITION_CAP,
  OPERATORS,
  addCondition,
  conditionCount,
  defaultUnit,
  draftProblem,
  emptyScreeningForm,
  numericFields,
  parseScreeningFields,
  previewMetrics,
  previewNumber,
  previewUnit,
  removeCondition,
  screenFormula,
  screeningQuery,
  unitChoices,
  type ConditionDraft,
  type Operator,
  type ScreeningFieldInfo,
} from "../state/screening-model";
import { TSE17_SECTORS, TSE33_INDUSTRIES } from "../../src/contract/tse-industries";
import { unitNote } from "../state/unit-notes";
import { limitOf } from "../state/contract-params";
import { errorText, UserMessageError } from "../error-text";
import { isKaishaError } from "../../src/client";
import { MetricPicker, metricText } from "./metric-picker";
import { MultiSelect } from "./multi-select";
import { ProgressLine } from "./progress-line";
import { StatusMessage } from "./status-message";
import { importedMessage } from "./imported-message";
import { HistogramChart } from "./histogram-chart";
import { histogram, shownValue } from "../state/histogram";

/** openapi.json getScreening: the rows one /screening page may hold. */
const SCREEN_LIMIT = limitOf("getScreening");
/** The largest page: an import reads the fewest pages. */
const SCREEN_PAGE = SCREEN_LIMIT.max;

interface Preview {
  /**
   * the query the preview ran, to tell when the form has changed since (openapi.json getScreening).
   */
  queryKey: string;
  total: number;
  /** the rows per preview asked for (the form's row count when it ran). */
  limit: number;
  rows: { code: string; name: string; metrics: Record<string, number> }[];
}

export function ScreeningSection() {
  const { t, session, excel, bump, connection } = usePane();
  const task = useTask(t);
  const [fields, setFields] = useState<ScreeningFieldInfo[] | undefined>();
  const [fieldsError, setFieldsError] = useState<string | undefined>();
  const [form, setForm] = useState(emptyScreeningForm);
  const [draft, setDraft] = useState<ConditionDraft>({ field: "", op: "gte", value: "", unit: "" });
  const [preview, setPreview] = useState<Preview | undefined>();
  const [progress, setProgress] = useState<ImportProgress | undefined>();
  // What the user is typing in the row count: it may be empty or out of range for a moment.
  const [limitText, setLimitText] = useState(String(emptyScreeningForm().limit));

  const loadFields = useCallback(() => {
    setFieldsError(undefined);
    session
      .client()
      .screeningFields()
      .then((body) => setFields(parseScreeningFields(body)))
      .catch((err: unknown) => setFieldsError(errorText(err, t)));
  }, [session, t]);
  useEffect(loadFields, [loadFields]);
  // The section stays mounted: a catalogue that failed (no key yet) loads once the key is verified.
  const lastConnection = useRef(connection);
  useEffect(() => {
    const was = lastConnection.current;
    lastConnection.current = connection;
    if (was !== connection && connection === "ok" && !fields) loadFields();
  }, [connection, fields, loadFields]);

  const all = useMemo(() => fields ?? [], [fields]);
  const numeric = useMemo(() => numericFields(all), [all]);
  const fieldOf = (key: string) => all.find((f) => f.key === key);
  const selectedField = fieldOf(draft.field);
  const count = conditionCount(form);
  const problem = draftProblem(draft, form, all);
  const queryKey = JSON.stringify(screeningQuery(form, all));
  // A preview of other criteria says nothing about these: no row count, no progress total from it.
  const fresh = preview !== undefined && preview.queryKey === queryKey ? preview : undefined;
  const formula = screenFormula(form, all, fresh?.total);
  const unitText = (u: string) => optional(t, `unit_${u}`, optional(t, `opt_${u}`, u));
  const previewKeys = previewMetrics(form);
  const previewHeader = (key: string): string => {
    const unit = previewUnit(fieldOf(key)?.unit ?? null);
    const field = fieldOf(key);
    // The English pane names metrics in English (english-labels.ts), never the API's Japanese label.
    const label = field ? metricText(field, t.lang) : key;
    const note = unit ? unitNote(unit, t.lang) : undefined;
    if (!note) return label;
    return t.lang === "ja" ? `${label}（${note}）` : `${label} (${note})`;
  };

  // Import is offered once a preview of exactly these conditions found something; its cost is the
  // pages of 100 rows it reads (openapi.json getScreening: limit at most 100, the cursor carries
  // the rest).
  const importable = fresh !== undefined && fresh.total > 0;
  const importCost = fresh ? Math.max(1, Math.ceil(fresh.total / SCREEN_PAGE)) : 0;
  const chartKey = form.sortBy || form.conditions[0]?.field || "";
  // The chart counts the rows the table lists, so matches, rows shown and the chart's population
  // are told apart and add up.
  const chart = useMemo(() => {
    if (!preview || chartKey === "") return undefined;
    const unit = fieldOf(chartKey)?.unit ?? null;
    const values = preview.rows
      .map((r) => r.metrics[chartKey])
      .filter((v): v is number => typeof v === "number" && Number.isFinite(v))
      .map((v) => shownValue(v, unit));
    if (values.length === 0) return undefined;
    const missing = preview.rows.length - values.length;
    const vars = { metric: previewHeader(chartKey), n: values.length, missing };
    return {
      bins: histogram(values),
      title: missing > 0 ? t("histogramMissing", vars) : t("histogramOfShown", vars),
    };
    // fieldOf/previewHeader read `all`
  }, [preview, chartKey, all, t]);

  const metricsOfQuery = (): Record<string, { label: string; unit: string | null }> => {
    const keys = new Set([
      ...form.conditions.map((c) => c.field),
      ...(form.sortBy ? [form.sortBy] : []),
    ]);
    return Object.fromEntries(
      [...keys].map((k) => [k, { label: fieldOf(k)?.label ?? k, unit: fieldOf(k)?.unit ?? null }]),
    );
  };

  const runPreview = () =>
    task.run(async (signal) => {
      const query = screeningQuery(form, all);
      const body = await session.client().screening(query, { signal });
      const rows = body.securities.map((s) => ({
        code: s.security_code,
        name: s.name,
        metrics: Object.fromEntries(s.metrics.map((m) => [m.field, m.value])),
      }));
      setPreview({
        queryKey: JSON.stringify(query),
        total: body.total_count,
        limit: form.limit,
        rows,
      });
      return undefined;
    });

  const runTableImport = () =>
    task.run(async (signal): Promise<TaskMessage> => {
      // Every page: the page size is the API maximum, the cursor carries the rest (openapi.json
      // getScreening).
      const query = { ...screeningQuery(form, all), limit: SCREEN_PAGE };
      const params = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
      try {
        const written = await runImport(
          { dataset: "screening", params, metrics: metricsOfQuery() },
          {
            client: session.client(),
            excel: EXCEL_IMPORT,
            lang: t.lang,
            headers: session.settings.headerLanguage,
            signal,
            onProgress: setProgress,
          },
        );
        bump();
        return importedMessage(t, written);
      } catch (err) {
        // Nothing matched by the time of the import: say so in terms of conditions, not periods.
        if (isKaishaError(err) && err.code === "no_results")
          throw new UserMessageError(t("screenNoHits"));
        throw err;
      } finally {
        setProgress(undefined);
      }
    });

  const runInsertFormula = () =>
    task.run(async () => {
      const address = await insertFormula(formula);
      return { intent: "success", text: t("formulaInserted", { address }) };
    });

  const opText: Record<Operator, string> = {
    gte: t("op_gte"),
    lte: t("op_lte"),
    gt: t("op_gt"),
    lt: t("op_lt"),
    eq: t("op_eq"),
  };

  if (!fields) {
    return (
      <div className="kaisha-section">
        <Text as="h2" weight="semibold" size={400}>
          {t("screenTitle")}
        </Text>
        {fieldsError ? (
          <>
            <StatusMessage
              message={{ intent: "error", text: fieldsError }}
              testId="screen-message"
            />
            <Button
              data-testid="screen-fields-retry"
              aria-label={t("screenFieldsRetryNamed")}
              onClick={loadFields}
            >
              {t("problemsRetry")}
            </Button>
          </>
        ) : (
          <Spinner data-testid="screen-fields-loading" size="small" label={t("fieldsLoading")} />
        )}
      </div>
    );
  }

  return (
    <div className="kaisha-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("screenTitle")}
      </Text>
      <Field label={t("metric")}>
        <MetricPicker
          fields={numeric}
          ariaLabel={t("metric")}
          lang={t.lang}
          selected={draft.field}
          placeholder={t("metricSearch")}
          onSelect={(key) =>
            setDraft({ ...draft, field: key, unit: defaultUnit(fieldOf(key)?.unit ?? null) })
          }
        />
      </Field>
      <div className="kaisha-row">
        <Field label={t("operator")}>
          <Select
            data-testid="screen-operator"
            value={draft.op}
            onChange={(_, d) => setDraft({ ...draft, op: d.value as Operator })}
          >
            {OPERATORS.map((op) => (
              <option key={op} value={op}>
                {opText[op]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t("value")}>
          <Input
            data-testid="screen-value"
            inputMode="decimal"
            value={draft.value}
            onChange={(_, d) => setDraft({ ...draft, value: d.value })}
          />
        </Field>
        <Field label={t("unit")}>
          <Select
            data-testid="screen-unit"
            value={draft.unit}
            disabled={!selectedField}
            onChange={(_, d) => setDraft({ ...draft, unit: d.value })}
          >
            {unitChoices(selectedField?.unit ?? null).map((u) => (
              <option key={u} value={u}>
                {unitText(u)}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {selectedField?.note && (
        <Text size={200} data-testid="screen-metric-note">
          {selectedField.note}
        </Text>
      )}
      <Button
        data-testid="screen-add-condition"
        disabled={problem !== undefined}
        title={
          problem === "no_metric"
            ? t("draftNoMetric")
            : problem === "no_value"
              ? t("draftNoValue")
              : problem === "bad_unit"
                ? t("draftBadUnit")
                : problem === "cap"
                  ? t("draftCap")
                  : undefined
        }
        onClick={() => {
          setForm(addCondition(form, draft));
          setDraft({ ...draft, value: "" });
        }}
      >
        {t("addCondition")}
      </Button>

      <Text weight="semibold">{t("conditions")}</Text>
      {form.conditions.length === 0 ? (
        <Text size={200}>{t("noConditions")}</Text>
      ) : (
        <ul className="kaisha-list">
          {form.conditions.map((c, i) => {
            const f = fieldOf(c.field);
            return (
              <li key={`${c.field}-${i}`} data-testid={`screen-condition-${i}`}>
                <span>
                  {f ? metricText(f, t.lang) : c.field} {opText[c.op]} {c.value} {unitText(c.unit)}
                </span>
                <Button
                  size="small"
                  appearance="subtle"
                  data-testid={`screen-condition-remove-${i}`}
                  aria-label={t("removeConditionNamed", {
                    condition: `${f ? metricText(f, t.lang) : c.field} ${opText[c.op]} ${c.value} ${unitText(c.unit)}`,
                  })}
                  onClick={() => setForm(removeCondition(form, i))}
                >
                  {t("removeCondition")}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <Text size={200} title={t("conditionCapHint", { cap: CONDITION_CAP })}>
        {t("conditionCount")}:{" "}
        <span data-testid="screen-condition-count" data-over={String(count > CONDITION_CAP)}>
          {count} / {CONDITION_CAP}
        </span>
      </Text>
      <Field label={t("nameContains")}>
        <Input
          data-testid="screen-name"
          value={form.name}
          onChange={(_, d) => setForm({ ...form, name: d.value })}
        />
      </Field>
      <Field label={t("sector")}>
        <MultiSelect
          testId="screen-sector"
          items={TSE17_SECTORS}
          selected={form.sectors}
          lang={t.lang}
          placeholder={t("selectPlaceholder")}
          onChange={(sectors) => setForm({ ...form, sectors })}
        />
      </Field>
      <Field label={t("industry")}>
        <MultiSelect
          testId="screen-industry"
          items={TSE33_INDUSTRIES}
          selected={form.industries}
          lang={t.lang}
          placeholder={t("selectPlaceholder")}
          onChange={(industries) => setForm({ ...form, industries })}
        />
      </Field>
      <div className="kaisha-row">
        <Field label={t("sortBy")}>
          <Select
            data-testid="screen-sort-by"
            value={form.sortBy}
            onChange={(_, d) => setForm({ ...form, sortBy: d.value })}
          >
            <option value="">{t("sortNone")}</option>
            {numeric.map((f) => (
              <option key={f.key} value={f.key}>
                {metricText(f, t.lang)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={t("sortOrder")}>
          <Select
            data-testid="screen-sort-order"
            value={form.sortOrder}
            onChange={(_, d) => setForm({ ...form, sortOrder: d.value === "asc" ? "asc" : "desc" })}
          >
            <option value="desc">{t("sortDesc")}</option>
            <option value="asc">{t("sortAsc")}</option>
          </Select>
        </Field>
      </div>
      <div className="kaisha-row">
        <Field label={t("asOf")}>
          <Input
            data-testid="screen-as-of"
            placeholder="YYYY-MM-DD"
            value={form.asOf}
            onChange={(_, d) => setForm({ ...form, asOf: d.value })}
          />
        </Field>
        <Field label={t("limit")}>
          <Input
            data-testid="screen-limit"
            type="number"
            min={SCREEN_LIMIT.min}
            max={SCREEN_LIMIT.max}
            value={limitText}
            onChange={(_, d) => {
              setLimitText(d.value);
              const n = Number(d.value);
              if (
                d.value.trim() !== "" &&
                Number.isInteger(n) &&
                n >= SCREEN_LIMIT.min &&
                n <= SCREEN_LIMIT.max
              ) {
                setForm({ ...form, limit: n });
              }
            }}
            onBlur={() => setLimitText(String(form.limit))}
          />
        </Field>
      </div>
      <Button
        data-testid="screen-preview"
        appearance="primary"
        disabled={task.running || count > CONDITION_CAP}
        onClick={() => void runPreview()}
      >
        {t("previewConditions")}
      </Button>
      <div role="status" aria-live="polite" data-testid="screen-preview-region">
        {preview && (
          <div className="kaisha-preview">
            <Text>
              {t("totalCount")}: <span data-testid="screen-total-count">{preview.total}</span>
            </Text>
            {!fresh && (
              <Text size={200} data-testid="screen-preview-stale">
                {" "}
                {t("previewStale")}
              </Text>
            )}
            {preview.total === 0 && (
              <MessageBar intent="info" data-testid="screen-no-hits">
                <MessageBarBody>{t("screenNoHits")}</MessageBarBody>
              </MessageBar>
            )}
            {preview.rows.length > 0 && (
              <Text size={200} data-testid="screen-shown-count" data-shown={preview.rows.length}>
                {" "}
                {preview.rows.length < preview.total
                  ? t("screenShownSome", {
                      shown: preview.rows.length,
                      total: preview.total,
                      limit: preview.limit,
                    })
                  : t("screenShownAll", { shown: preview.rows.length })}
              </Text>
            )}
          </div>
        )}
      </div>
      {preview && preview.rows.length > 0 && (
        <>
          <div className="kaisha-table-scroll kaisha-preview-scroll">
            <Table size="extra-small" data-testid="screen-preview-table">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t("colCode")}</TableHeaderCell>
                  <TableHeaderCell>{t("colName")}</TableHeaderCell>
                  {previewKeys.map((key) => (
                    <TableHeaderCell key={key}>{previewHeader(key)}</TableHeaderCell>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {preview.rows.map((r) => (
                  <TableRow key={r.code} data-testid="screen-preview-row">
                    <TableCell>{r.code}</TableCell>
                    <TableCell title={r.name}>
                      <span className="kaisha-name-cell" data-testid="screen-preview-name">
                        {r.name}
                      </span>
                    </TableCell>
                    {previewKeys.map((key) => (
                      <TableCell key={key}>
                        {previewNumber(r.metrics[key], fieldOf(key)?.unit ?? null)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {chart && (
            <Field label={chart.title}>
              <HistogramChart
                bins={chart.bins}
                label={chart.title}
                testId="screen-histogram"
                countText={(n) => t("countCompanies", { n })}
              />
            </Field>
          )}
        </>
      )}
      <div className="kaisha-row">
        <Button
          data-testid="screen-import"
          appearance={importable ? "primary" : "secondary"}
          disabled={task.running || !excel || !importable || count > CONDITION_CAP}
          title={importable ? undefined : t("importNeedsPreview")}
          data-cost={importable ? String(importCost) : ""}
          onClick={() => void runTableImport()}
        >
          {importable
            ? t("importAsTableCost", { rows: fresh?.total ?? 0, n: importCost })
            : t("importAsTable")}
        </Button>
        <Button
          data-testid="screen-insert-formula"
          disabled={task.running || !excel}
          onClick={() => void runInsertFormula()}
        >
          {t("insertFormula")}
        </Button>
      </div>
      {!importable && (
        <Text size={200} data-testid="screen-import-hint">
          {t("importNeedsPreview")}
        </Text>
      )}
      <Field label={t("formulaLabel")}>
        <code data-testid="screen-formula-text" className="kaisha-formula">
          {formula}
        </code>
      </Field>
      <ProgressLine
        t={t}
        progress={progress}
        expected={fresh?.total}
        testId="screen-import-progress"
        cancelTestId="screen-import-cancel"
        onCancel={task.cancel}
      />
      <StatusMessage message={task.message} testId="screen-message" />
    </div>
  );
}
