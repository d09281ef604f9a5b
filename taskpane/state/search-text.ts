// What a search box searches for when the analyst types into a box that shows the previous pick.

/**
 * The text to search when a box's text changed from `previous` to `next` while it showed a pick
 * (`shown`): what was typed into the pick's line, wherever the caret was (a click leaves it inside
 * the line), starts a new search instead of searching "7203 トヨタ自動車 · 輸送用機器 · プライム6758"
 * for nothing. Any other edit (characters of the pick deleted or replaced, a box not showing a pick)
 * is searched as it reads.
 *
 * @example searchTextAfterPick("7203 トヨタ自動車", "7203 トヨタ自動車6758", "7203 トヨタ自動車") // "6758"
 */
export function searchTextAfterPick(
  previous: string,
  next: string,
  shown: string | undefined,
): string {
  if (shown === undefined || shown === "" || previous !== shown) return next;
  if (next.length <= shown.length) return next;
  // A pure insertion: the pick's line is still all there, around what was typed.
  let head = 0;
  while (head < shown.length && shown[head] === next[head]) head++;
  const tail = shown.length - head;
  if (next.slice(next.length - tail) !== shown.slice(head)) return next;
  return next.slice(head, next.length - tail);
}
