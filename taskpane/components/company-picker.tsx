// Company picker shared by Import, Company sheet and the builder: search by name or code, pick one.

import { useEffect, useRef, useState } from "react";
import { Combobox, Field, Option, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useCompanySearch } from "../hooks/use-company-search";
import { errorText } from "../error-text";
import {
  companySearchFor,
  hitText,
  isEdinetLike,
  isSecurityCode,
  searchKey,
} from "../state/company-search";
import { searchTextAfterPick } from "../state/search-text";

/**
 * The code a typed text stands for without picking: a security code or an EDINET code as typed
 * (upper case, half width); anything else (a name) stands for nothing until a company is picked.
 * @internal Tests check what a typed text stands for directly.
 */
export function typedCode(text: string): string {
  const t = text.normalize("NFKC").trim().toUpperCase();
  return isSecurityCode(t) || isEdinetLike(t) ? t : "";
}

export function CompanyPicker(props: {
  testId: string;
  value: string;
  onChange: (code: string) => void;
  label?: string;
  required?: boolean;
  /** EDINET codes are accepted where the function or dataset takes them. */
  allowEdinet?: boolean;
  hint?: string;
}) {
  const { t, session } = usePane();
  const search = companySearchFor(session);
  const [text, setText] = useState(props.value);
  // Typing opens the list (keyboard users then choose with the arrows and Enter).
  const [open, setOpen] = useState(false);
  const emitted = useRef(props.value);
  // A code set from outside (another dataset keeping the company) shows in the box.
  useEffect(() => {
    if (props.value !== emitted.current) {
      emitted.current = props.value;
      const hit = search.byCode(props.value);
      setText(hit ? hitText(hit, t.lang) : props.value);
    }
  }, [props.value, search, t.lang]);

  const picked = search.byCode(props.value);
  const pickedText = picked ? hitText(picked, t.lang) : undefined;
  // The box shows the picked company's line; searching it again would only repeat the pick.
  const query = pickedText !== undefined && text === pickedText ? "" : text;
  const state = useCompanySearch(search, query);
  const emit = (code: string) => {
    emitted.current = code;
    props.onChange(code);
  };

  const typed = typedCode(query);
  const edinet = typed !== "" && isEdinetLike(typed);
  const noMatch =
    !state.loading &&
    state.error === undefined &&
    state.forText === query &&
    query !== "" &&
    state.hits.length === 0;
  let status = "";
  if (state.error !== undefined) status = errorText(state.error, t);
  else if (edinet && !props.allowEdinet) status = t("companyEdinetNotHere");
  else if (pickedText) status = t("companyPicked", { company: pickedText });
  else if (state.loading) status = t("companySearching");
  else if (noMatch && !edinet) status = t("companyNoMatch", { text: query.trim() });
  else if (!state.complete) status = t("companyMore");

  const label = props.label ?? t("companyLabel");
  return (
    <Field
      label={label}
      required={props.required ?? true}
      hint={props.hint ?? t("companySearchHint")}
      validationState={noMatch && !edinet ? "warning" : "none"}
    >
      <Combobox
        data-testid={props.testId}
        freeform
        aria-label={label}
        placeholder={t("companySearchPlaceholder")}
        value={text}
        open={open}
        onOpenChange={(_, d) => setOpen(d.open)}
        selectedOptions={props.value ? [props.value] : []}
        // The pick's line is selected on entering the box, so typing replaces it.
        onFocus={(e) => e.target.select()}
        onClick={(e) => {
          if (text === pickedText) e.currentTarget.select();
        }}
        onChange={(e) => {
          const next = searchTextAfterPick(text, e.target.value, pickedText);
          setText(next);
          setOpen(true);
          // A typed code counts at once; a name counts only once a company is picked from the list.
          const code = typedCode(next);
          emit(code === "" || (isEdinetLike(code) && !props.allowEdinet) ? "" : code);
        }}
        onOptionSelect={(_, d) => {
          const code = d.optionValue;
          if (!code) return;
          const hit = state.hits.find((h) => h.code === code) ?? search.byCode(code);
          setText(hit ? hitText(hit, t.lang) : code);
          setOpen(false);
          emit(code);
        }}
      >
        {edinet && props.allowEdinet && (
          <Option
            key={`edinet-${typed}`}
            value={typed}
            text={typed}
            data-testid={`${props.testId}-option-${typed}`}
          >
            {t("companyEdinetOption", { code: typed })}
          </Option>
        )}
        {state.hits.map((h) => (
          <Option
            key={h.code}
            value={h.code}
            text={hitText(h, t.lang)}
            data-testid={`${props.testId}-option-${h.code}`}
          >
            {hitText(h, t.lang)}
          </Option>
        ))}
      </Combobox>
      <Text
        size={200}
        role="status"
        aria-live="polite"
        data-testid={`${props.testId}-status`}
        data-picked={picked?.code ?? ""}
        data-query={searchKey(query)}
      >
        {status}
      </Text>
    </Field>
  );
}
