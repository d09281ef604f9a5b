// Item / metric search box shared by screening and the builder: finds by Japanese label, English label or key.

import { useEffect, useMemo, useRef, useState } from "react";
import { Combobox, Option } from "@fluentui/react-components";
import type { Lang } from "../i18n/language";
import { englishLabel, searchItems } from "../state/metric-labels";
import { searchTextAfterPick } from "../state/search-text";

/** What the picker lists: a key with its Japanese label (the contract's or /screening/fields'). */
export interface PickerItem {
  key: string;
  label: string;
}

/** How an item reads: its Japanese label in Japanese, an English label in English (no raw keys). */
export function metricText(f: PickerItem, lang: Lang): string {
  return lang === "ja" ? f.label : englishLabel(f.key);
}

const MAX_OPTIONS = 60;

export function MetricPicker(props: {
  fields: readonly PickerItem[];
  lang: Lang;
  selected: string;
  placeholder: string;
  onSelect: (key: string) => void;
  testId?: string;
  ariaLabel?: string;
}) {
  const testId = props.testId ?? "screen-metric-search";
  const selectedItem = props.fields.find((x) => x.key === props.selected);
  // A selected text that is no item (a formula's mistyped item) stays visible as typed.
  const [query, setQuery] = useState(
    selectedItem ? metricText(selectedItem, props.lang) : props.selected,
  );
  // Typing opens the list, so the keyboard alone can search and choose.
  const [open, setOpen] = useState(false);
  const shownText = selectedItem ? metricText(selectedItem, props.lang) : undefined;
  // A choice made outside the box (an example filled in, another language) shows in it.
  const lastSelected = useRef(props.selected);
  useEffect(() => {
    if (props.selected === lastSelected.current) return;
    lastSelected.current = props.selected;
    setQuery(shownText ?? props.selected);
  }, [props.selected, shownText]);
  // The box showing the chosen item lists everything again, not just that one.
  const filter = shownText !== undefined && query === shownText ? "" : query;
  const matches = useMemo(
    () => searchItems(props.fields, filter).slice(0, MAX_OPTIONS),
    [props.fields, filter],
  );
  return (
    <Combobox
      data-testid={testId}
      freeform
      aria-label={props.ariaLabel}
      placeholder={props.placeholder}
      value={query}
      open={open}
      onOpenChange={(_, d) => setOpen(d.open)}
      selectedOptions={props.selected ? [props.selected] : []}
      // The chosen item's text is selected on entering the box, so typing replaces it.
      onFocus={(e) => e.target.select()}
      onClick={(e) => {
        if (query === shownText) e.currentTarget.select();
      }}
      onChange={(e) => {
        setQuery(searchTextAfterPick(query, e.target.value, shownText));
        setOpen(true);
      }}
      onOptionSelect={(_, d) => {
        if (d.optionValue) {
          lastSelected.current = d.optionValue;
          setOpen(false);
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
          data-testid={`${testId === "screen-metric-search" ? "screen-metric" : testId}-option-${f.key}`}
        >
          {metricText(f, props.lang)}
        </Option>
      ))}
    </Combobox>
  );
}
