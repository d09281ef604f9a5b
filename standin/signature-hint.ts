// The argument hint shown under the formula bar while typing, as Excel's tooltip does: which function
// call the cursor is in and which of its arguments is being typed.

export interface CallAtCursor {
  /** The function name as typed, upper case (e.g. "KAISHA.FINANCIALS"). */
  name: string;
  /** 0-based index of the argument under the cursor. */
  argIndex: number;
}

/**
 * Finds the innermost unclosed call before `cursor`, ignoring commas and parentheses inside text and
 * array constants.
 * @example callAtCursor('=KAISHA.FINANCIALS(7203,"a,b",', 30) // {name: "KAISHA.FINANCIALS", argIndex: 2}
 */
export function callAtCursor(text: string, cursor: number = text.length): CallAtCursor | undefined {
  const stack: CallAtCursor[] = [];
  let inText = false;
  let braces = 0;
  const end = Math.min(cursor, text.length);
  for (let i = 0; i < end; i++) {
    const ch = text[i];
    if (inText) {
      if (ch === '"') inText = false; // a doubled quote re-enters text on the next character
      continue;
    }
    if (ch === '"') inText = true;
    else if (ch === "{") braces++;
    else if (ch === "}") braces = Math.max(0, braces - 1);
    else if (braces > 0) continue;
    else if (ch === "(") {
      const m = /([A-Za-z_][A-Za-z0-9_.]*)\s*$/.exec(text.slice(0, i));
      stack.push({ name: (m?.[1] ?? "").toUpperCase(), argIndex: 0 });
    } else if (ch === ")") stack.pop();
    else if (ch === ",") {
      const top = stack[stack.length - 1];
      if (top) top.argIndex++;
    }
  }
  for (let i = stack.length - 1; i >= 0; i--) {
    const call = stack[i];
    if (call && call.name !== "") return call;
  }
  return undefined;
}
