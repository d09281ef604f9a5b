// What a search box searches for when the analyst types into a box that shows the previous pick.

/**
 * The text to search when a box's text changed from `previous` to `next` while it showed a pick
 * (`shown`): typing after the pick's line starts a new search with what was typed, instead of
 * searching "7203 トヨタ自動車 · 輸送用機器 · プライム6758" for nothing. Any other edit (the
 * pick's text shortened or changed inside, a box not showing a pick) is searched as it reads.
 *
 * @example searchTextAfterPick("7203 トヨタ自動車", "7203 トヨタ自動車6758", "7203 トヨタ自動車") // "6758"
 */
export function searchTextAfterPick(
  previous: string,
  next: string,
  shown: string | undefined,
): string {
  if (shown === undefined || shown === "" || previous !== shown) return next;
  if (next.length > shown.length && next.startsWith(shown)) return next.slice(shown.length);
  return next;
}
