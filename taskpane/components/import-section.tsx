// Table imports for every dataset: parameter form, import at the selected cell with progress, chart.

import { useState } from "react";
import { Button, Field, Input, Select, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useTask, type TaskMessage } from "../hooks/use-task";
import { optional, type Translator } from "../i18n/messages";
import { EXCEL_IMPORT } from "../excel-import";
import { insertChart } from "../excel/chart";
import { chartRequest } from "../chart-plan";
import { UserMessageError } from "../error-text";
import {
  CHARTABLE,
  DATASET_PARAMS,
  IMPORT_DATASETS,
  checkParams,
  normalizeParams,
  defaultParams,
  type DatasetId,
  type ParamSpec,
  type ParamValues,
} from "../state/datasets";
import { runImport, type ImportProgress } from "../state/import-flow";
import { priceImportCost } from "../state/price-window";
import type { ColumnSpec } from "../state/table-data";
import { TSE33_INDUSTRIES } from "../../src/contract/tse-industries";
import { ProgressLine } from "./progress-line";
import { StatusMessage } from "./status-message";
import { CompanyPicker } from "./company-picker";
import { importedMessage } from "./imported-message";

function paramLabel(t: Translator, name: string, labelKey?: string): string {
  return optional(t, labelKey ?? `param_${name}`, name);
}

/** Option text: Japanese industry names get their English name in the English pane. */
function optionText(t: Translator, param: string, value: string): string {
  if (value === "") return t("optionAny");
  if (param === "industry") {
    const named = TSE33_INDUSTRIES.find((i) => i.ja === value);
    return t.lang === "en" && named ? `${named.en}（${named.ja}）` : value;
  }
  return optional(t, `opt_${value}`, value);
}

function ParamField(props: {
  spec: ParamSpec;
  value: string;
  t: Translator;
  onChange: (v: string) => void;
}) {
  const { spec, t } = props;
  const testId = `import-param-${spec.name}`;
  const label = paramLabel(t, spec.name, spec.labelKey);
  if (spec.name === "security_code" || spec.name === "code") {
    // The company: searched by name or code; EDINET codes where the dataset takes them.
    return (
      <CompanyPicker
        testId={testId}
        label={label}
        value={props.value}
        required={spec.required === true}
        allowEdinet={spec.labelKey === "param_company"}
        onChange={props.onChange}
      />
    );
  }
  if (spec.kind === "select" && spec.options) {
    return (
      <Field label={label}>
        <Select
          data-testid={testId}
          value={props.value}
          onChange={(_, d) => props.onChange(d.value)}
        >
          {spec.options.map((o) => (
            <option key={o} value={o}>
              {optionText(t, spec.name, o)}
            </option>
          ))}
        </Select>
      </Field>
    );
  }
  const placeholder = spec.kind === "date" ? "YYYY-MM-DD" : spec.kind === "month" ? "YYYY/MM" : "";
  return (
    <Field
      label={label}
      required={spec.required === true}
      {...(spec.kind === "int" && spec.min !== undefined && spec.max !== undefined
        ? { hint: t("paramRangeHint", { min: spec.min, max: spec.max }) }
        : {})}
    >
      <Input
        data-testid={testId}
        value={props.value}
        placeholder={placeholder}
        {...(spec.kind === "int" ? { type: "number" as const, min: spec.min, max: spec.max } : {})}
        onChange={(_, d) => props.onChange(d.value)}
      />
    </Field>
  );
}

interface LastImport {
  dataset: DatasetId;
  table: string;
  columns: ColumnSpec[];
  code: string;
  params: ParamValues;
}

export function ImportSection() {
  const { t, session, excel, bump } = usePane();
  const task = useTask(t);
  const [dataset, setDataset] = useState<DatasetId>("financials");
  const [values, setValues] = useState<ParamValues>(() => defaultParams("financials"));
  const [progress, setProgress] = useState<ImportProgress | undefined>();
  const [last, setLast] = useState<LastImport | undefined>();

  const choose = (d: DatasetId) => {
    // Keep the company/code the user typed when switching datasets.
    const code = values.code ?? values.security_code ?? "";
    const next = defaultParams(d);
    for (const k of ["code", "security_code"]) if (k in next) next[k] = code;
    setDataset(d);
    setValues(next);
  };

  const importNow = async (
    signal: AbortSignal,
  ): Promise<{ message: TaskMessage; done: LastImport }> => {
    const params = normalizeParams(values);
    const problems = checkParams(dataset, params);
    const first = problems[0];
    if (first) {
      const key =
        first.reason === "missing"
          ? "paramMissing"
          : first.reason === "out_of_range"
            ? "paramRange"
            : "paramFormat";
      throw new UserMessageError(t(key, { param: paramLabel(t, first.param) }));
    }
    let columns: ColumnSpec[] = [];
    const excelSide = {
      ...EXCEL_IMPORT,
      writeTable: (
        table: Parameters<typeof EXCEL_IMPORT.writeTable>[0],
        o: Parameters<typeof EXCEL_IMPORT.writeTable>[1],
      ) => {
        columns = table.columns;
        return EXCEL_IMPORT.writeTable(table, o);
      },
    };
    try {
      const written = await runImport(
        { dataset, params },
        {
          client: session.client(),
          excel: excelSide,
          lang: t.lang,
          headers: session.settings.headerLanguage,
          signal,
          onProgress: setProgress,
        },
      );
      const code = (params.code ?? params.security_code ?? "").toUpperCase();
      const done: LastImport = { dataset, table: written.name, columns, code, params: values };
      setLast(done);
      bump();
      return {
        done,
        message: importedMessage(t, written),
      };
    } finally {
      setProgress(undefined);
    }
  };

  const run = () => task.run(async (signal) => (await importNow(signal)).message);
  // The requests an import sends, on its button as screening shows it (pages of 500 price rows).
  const cost =
    dataset === "prices"
      ? priceImportCost(values.from ?? "", values.to ?? "", new Date())
      : undefined;

  const chart = () =>
    task.run(async (signal) => {
      // Chart the table just imported with these parameters, or import it first.
      const target =
        last && last.dataset === dataset && JSON.stringify(last.params) === JSON.stringify(values)
          ? last
          : (await importNow(signal)).done;
      const request = chartRequest(target.dataset, target.table, target.columns, target.code, t);
      if (!request) throw new UserMessageError(t("chartNeedsImport"));
      await insertChart(request);
      return { intent: "success", text: t("chartInserted") };
    });

  return (
    <div className="kaisha-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("importTitle")}
      </Text>
      <Field label={t("dataset")}>
        <Select
          data-testid="import-dataset-select"
          value={dataset}
          onChange={(_, d) => choose(d.value as DatasetId)}
        >
          {IMPORT_DATASETS.map((d) => (
            <option key={d} value={d}>
              {optional(t, `ds_${d}`, d)}
            </option>
          ))}
        </Select>
      </Field>
      {DATASET_PARAMS[dataset].map((spec) => (
        <ParamField
          key={`${dataset}-${spec.name}`}
          spec={spec}
          t={t}
          value={values[spec.name] ?? ""}
          onChange={(v) => setValues({ ...values, [spec.name]: v })}
        />
      ))}
      {dataset === "prices" && (
        <Text size={200} data-testid="import-price-window-hint">
          {t("priceWindowHint")}
        </Text>
      )}
      <div className="kaisha-row">
        <Button
          data-testid="import-run"
          appearance="primary"
          disabled={task.running || !excel}
          data-cost={cost === undefined ? "" : String(cost)}
          onClick={() => void run()}
        >
          {cost === undefined
            ? t("runImport")
            : cost === 1
              ? t("runImportCostOne")
              : t("runImportCost", { n: cost })}
        </Button>
        {CHARTABLE.has(dataset) && (
          <Button
            data-testid="import-chart"
            disabled={task.running || !excel}
            onClick={() => void chart()}
          >
            {t("insertChart")}
          </Button>
        )}
      </div>
      <ProgressLine
        t={t}
        progress={progress}
        testId="import-progress"
        cancelTestId="import-cancel"
        onCancel={task.cancel}
      />
      <StatusMessage message={task.message} testId="import-message" />
    </div>
  );
}
