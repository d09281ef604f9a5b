// Debounced company search for a picker: answers already known show at once, others after a pause.

import { useEffect, useState } from "react";
import {
  SEARCH_DEBOUNCE_MS,
  searchKey,
  searchable,
  type CompanySearch,
  type SecurityHit,
} from "../state/company-search";

export interface CompanySearchState {
  hits: SecurityHit[];
  complete: boolean;
  loading: boolean;
  error: unknown;
  /** the search text the hits belong to ("" when none). */
  forText: string;
}

const IDLE: CompanySearchState = {
  hits: [],
  complete: true,
  loading: false,
  error: undefined,
  forText: "",
};

/**
 * Searches `text` after SEARCH_DEBOUNCE_MS without typing; a newer text abandons the wait for the
 * older answer (which is still remembered). Text that cannot match sends nothing.
 */
export function useCompanySearch(search: CompanySearch, text: string): CompanySearchState {
  const [state, setState] = useState<CompanySearchState>(IDLE);
  useEffect(() => {
    const key = searchKey(text);
    if (!searchable(key)) {
      setState(IDLE);
      return;
    }
    const known = search.known(text);
    if (known) {
      setState({ ...known, loading: false, error: undefined, forText: text });
      return;
    }
    setState((s) => ({ ...s, loading: true, error: undefined }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      search
        .search(text, controller.signal)
        .then((r) => setState({ ...r, loading: false, error: undefined, forText: text }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ hits: [], complete: true, loading: false, error, forText: text });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search, text]);
  return state;
}
