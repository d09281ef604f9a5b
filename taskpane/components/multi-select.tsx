// Multi-select of named values (TSE sectors / industries), showing the pane's language, sending Japanese.

import { Combobox, Option } from "@fluentui/react-components";
import type { Lang } from "../i18n/language";
import type { Named } from "../../src/contract/tse-industries";

export function MultiSelect(props: {
  testId: string;
  items: readonly Named[];
  selected: readonly string[];
  lang: Lang;
  placeholder: string;
  onChange: (values: string[]) => void;
}) {
  const label = (n: Named) => (props.lang === "ja" ? n.ja : `${n.en}（${n.ja}）`);
  const shown = props.items
    .filter((n) => props.selected.includes(n.ja))
    .map(label)
    .join(", ");
  return (
    <Combobox
      data-testid={props.testId}
      multiselect
      placeholder={props.placeholder}
      value={shown}
      selectedOptions={[...props.selected]}
      onOptionSelect={(_, d) => props.onChange(d.selectedOptions)}
    >
      {props.items.map((n, i) => (
        <Option key={n.ja} value={n.ja} text={label(n)} data-testid={`${props.testId}-option-${i}`}>
          {label(n)}
        </Option>
      ))}
    </Combobox>
  );
}
