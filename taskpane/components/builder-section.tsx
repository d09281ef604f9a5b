// Formula builder: pick a KAISHA function, fill its arguments with hints and examples, insert it.

import { useState } from "react";
import { Button, Field, Input, Select, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useTask } from "../hooks/use-task";
import { insertFormula } from "../excel/formulas";
import { UserMessageError } from "../error-text";
import {
  FUNCTION_CATALOGUE,
  builderFormula,
  findFunction,
  missingArgs,
} from "../state/function-catalogue";
import { StatusMessage } from "./status-message";

export function BuilderSection() {
  const { t, excel } = usePane();
  const task = useTask(t);
  const [name, setName] = useState("FINANCIAL");
  const [values, setValues] = useState<Record<string, string>>({});
  const spec = findFunction(name) ?? FUNCTION_CATALOGUE[0];
  if (!spec) return null;
  const formula = builderFormula(spec, values);

  const insert = () =>
    task.run(async () => {
      const missing = missingArgs(spec, values);
      if (missing.length)
        throw new UserMessageError(t("builderMissing", { list: missing.join(", ") }));
      const address = await insertFormula(formula);
      return { intent: "success", text: t("formulaInserted", { address }) };
    });

  return (
    <div className="kaisha-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("builderTitle")}
      </Text>
      <Field label={t("builderFunction")}>
        <Select
          data-testid="builder-function-select"
          value={spec.name}
          onChange={(_, d) => {
            setName(d.value);
            setValues({});
          }}
        >
          {FUNCTION_CATALOGUE.map((f) => (
            <option key={f.name} value={f.name}>
              KAISHA.{f.name}
            </option>
          ))}
        </Select>
      </Field>
      <Text data-testid="builder-description" size={200}>
        {spec.description[t.lang]}
      </Text>
      <Text size={200} className="kaisha-hint" data-testid="builder-ref-hint">
        {t("builderRefHint")}
      </Text>
      {spec.args.map((arg) => (
        <Field
          key={`${spec.name}-${arg.name}`}
          label={arg.optional ? t("builderOptionalLabel", { name: arg.name }) : arg.name}
          required={!arg.optional}
          hint={
            <>
              {arg.hint[t.lang]}
              <br />
              {t("builderExample", { example: arg.example })}
            </>
          }
        >
          <Input
            data-testid={`builder-arg-${arg.name}`}
            value={values[arg.name] ?? ""}
            placeholder={arg.example}
            onChange={(_, d) => setValues({ ...values, [arg.name]: d.value })}
          />
        </Field>
      ))}
      <Button
        data-testid="builder-use-example"
        size="small"
        appearance="subtle"
        onClick={() =>
          setValues(
            Object.fromEntries(
              spec.args.filter((a) => !a.optional).map((a) => [a.name, a.example]),
            ),
          )
        }
      >
        {t("builderUseExample")}
      </Button>
      <Field label={t("formulaLabel")}>
        <code data-testid="builder-formula-preview" className="kaisha-formula">
          {formula}
        </code>
      </Field>
      <Button
        data-testid="builder-insert"
        appearance="primary"
        disabled={task.running || !excel}
        onClick={() => void insert()}
      >
        {t("builderInsert")}
      </Button>
      <StatusMessage message={task.message} testId="builder-message" />
    </div>
  );
}
