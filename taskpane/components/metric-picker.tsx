// Metric search box: filters the /screening/fields catalogue by Japanese label, English label or key.

import { useMemo, useState } from "react";
import { Combobox, Option } from "@fluentui/react-components";
import type { Lang } from "../i18n/language";
import { englishLabel } from "../state/metric-labels";
import { searchMetrics, type ScreeningFieldInfo } from "../state/screening-model";

/** How a metric reads in the list: the language's label with the key for reference. */
export function metricText(f: Pick<ScreeningFieldInfo, "key" | "label">, lang: Lang): string {
  return lang === "ja" ? `${f.label} [${f.key}]` : `${englishLabel(f.key)} [${f.key}]`;
}

const MAX_OPTIONS = 60;

export function MetricPicker(props: {
  fields: readonly ScreeningFieldInfo[];
  lang: Lang;
  selected: string;
  placeholder: string;
  onSelect: (key: string) => void;
}) {
  const [query, setQuery] = useState("");
  const matches = useMemo(
    () => searchMetrics(props.fields, query).slice(0, MAX_OPTIONS),
    [props.fields, query],
  );
  return (
    <Combobox
      data-testid="screen-metric-search"
      freeform
      placeholder={props.placeholder}
      value={query}
      selectedOptions={props.selected ? [props.selected] : []}
      onChange={(e) => setQuery(e.target.value)}
      onOptionSelect={(_, d) => {
        if (d.optionValue) {
          props.onSelect(d.optionValue);
          const f = props.fields.find((x) => x.key === d.optionValue);
          setQuery(f ? metricText(f, props.lang) : d.optionValue);
        }
      }}
    >
      {matches.map((f) => (
        <Option
          key={f.key}
          value={f.key}
          text={metricText(f, props.lang)}
          data-testid={`screen-metric-option-${f.key}`}
        >
          {metricText(f, props.lang)}
        </Option>
      ))}
    </Combobox>
  );
}
