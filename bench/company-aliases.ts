// Model 200/500 need more companies than the sandbox's 50: each extra one is a dataset company
// under another code, which the bench's fetch maps back (and the answers forward).

import type { RequestableApp } from "./in-process-fetch";

export interface AliasedCompany {
  /** Code the workbook uses. */
  code: string;
  /** Dataset company behind it. */
  base: string;
  /** EDINET code the answers carry for it (E8xxxx for aliases: no dataset code starts E8). */
  edinet: string | undefined;
}

/**
 * `count` companies: the dataset's own first, then aliases (unused four-digit codes from 1001 up)
 * cycling through the dataset. To the add-in every alias is a company of its own: its own URLs,
 * its own EDINET code, its own answers.
 */
export function aliasCompanies(
  baseCodes: readonly string[],
  taken: ReadonlySet<string>,
  count: number,
): AliasedCompany[] {
  const out: AliasedCompany[] = [];
  let next = 1001;
  for (let i = 0; i < count; i += 1) {
    const base = baseCodes[i % baseCodes.length] as string;
    if (i < baseCodes.length) {
      out.push({ code: base, base, edinet: undefined });
      continue;
    }
    while (taken.has(String(next))) next += 1;
    const code = String(next);
    next += 1;
    out.push({ code, base, edinet: `E8${String(i).padStart(4, "0")}` });
  }
  return out;
}

const CODE_IN_URL = /(security_code=|\/securities\/|[?&]code=)(\d{4})(?=[&/]|$)/;
const EDINET_IN_BODY = /"edinet_code":"(E\d{5})"/;

/**
 * Wraps an app: requests for an alias go to its dataset company, and its answers come back with
 * the alias's code and EDINET code in place of the dataset company's.
 */
export function aliasingApp(
  app: RequestableApp,
  companies: readonly AliasedCompany[],
): RequestableApp {
  const byCode = new Map(companies.filter((c) => c.edinet !== undefined).map((c) => [c.code, c]));
  return {
    async request(input: string, init?: RequestInit): Promise<Response> {
      const match = CODE_IN_URL.exec(input);
      const alias = match === null ? undefined : byCode.get(match[2] as string);
      if (alias === undefined || match === null) return app.request(input, init);
      const url = input.replace(CODE_IN_URL, `$1${alias.base}`);
      const response = await app.request(url, init);
      let text = await response.text();
      const edinet = EDINET_IN_BODY.exec(text)?.[1];
      text = text.replaceAll(`"${alias.base}"`, `"${alias.code}"`);
      if (edinet !== undefined && alias.edinet !== undefined)
        text = text.replaceAll(`"${edinet}"`, `"${alias.edinet}"`);
      // Bytes, not the string: a string body is copied once more by the Response constructor.
      return new Response(Buffer.from(text), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
}
