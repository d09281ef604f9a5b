// Company names looked up: a name -> its listed security through /securities?q=, only a whole name
// or code accepted (loaded with the send chunk by company-resolver.ts resolveCompany).

import type { KaishaClient, RequestOptions } from "../client";
import type { SecurityListItem } from "../contract";
import { normalizeText } from "../util/normalize";
import { ArgumentError } from "../excel/args";
import { COMPANY_FORMS } from "../excel/company-ref";

/**
 * One fixed page size for name look-ups, so every look-up of a name is the same request (and cache
 * entry); enough to tell "one match" from "several" and to list 5 candidates.
 */
const NAME_LOOKUP_LIMIT = 20;
const MAX_CANDIDATES = 5;

function squash(text: string): string {
  return (normalizeText(text) ?? "").replace(/\s+/g, "").toLowerCase();
}

/**
 * Legal-form words around a company name (株式会社, (株), ㈱, 有限会社, 合同会社, Co., Ltd., Inc.):
 * COMPANY shows the corporation's legal name (トヨタ自動車株式会社) where the securities list has
 * the listing name (トヨタ自動車); both name one company.
 */
const LEGAL_FORM =
  /株式会社|有限会社|合同会社|\(株\)|（株）|㈱|,?\s*(?:co\.?,?\s*ltd\.?|inc\.?|corporation|corp\.?)$/giu;

/** A trailing note in parentheses (（サンプル）, (旧社名)) is no part of the name. */
const TRAILING_NOTE = /\s*[（(][^（()）]*[)）]\s*$/u;

/** A name as compared: normalized, without its legal form and trailing note. */
function bareName(text: string): string {
  return squash((normalizeText(text) ?? "").replace(LEGAL_FORM, "").replace(TRAILING_NOTE, ""));
}

/** The text sent as q: the name without its legal form, so a legal name finds its listing. */
function lookupText(name: string): string {
  const bare = (normalizeText(name) ?? name).replace(LEGAL_FORM, "").trim();
  return bare === "" ? name : bare;
}

/**
 * A company name -> its security code via /securities?q= (openapi.json listSecurities: q is a
 * partial match on name or code). Only a whole name (ignoring its legal form and a trailing note
 * in parentheses) or a whole code is used: a partial match (30A for 130A, トヨタ for トヨタ自動車)
 * is never picked silently but refused as #VALUE! listing up to 5 candidates with their codes. In
 * a value preview the client answers from the cache only, so a look-up never spends a request
 * while the user types.
 */
export async function securityByName(
  client: KaishaClient,
  name: string,
  options: RequestOptions,
  argument = "company",
): Promise<SecurityListItem> {
  const body = await client.securities({ q: lookupText(name), limit: NAME_LOOKUP_LIMIT }, options);
  const found = body.securities;
  const wanted = bareName(name);
  const whole = found.filter((s) => squash(s.code) === squash(name) || bareName(s.name) === wanted);
  if (whole.length === 1 && whole[0] !== undefined) return whole[0];
  // The cause first, in terms of what was typed, then what the argument accepts.
  const typed = name.length > 40 ? `${name.slice(0, 37)}...` : name;
  if (found.length === 0) {
    throw new ArgumentError(argument, COMPANY_FORMS, name, {
      en: `No listed company matches "${typed}"`,
      ja: `「${typed}」という上場会社は見つかりません`,
    });
  }
  const shown = whole.length > 1 ? whole : found;
  const list = shown
    .slice(0, MAX_CANDIDATES)
    .map((s) => `${s.code} ${s.name}`)
    .join(", ");
  const more = shown.length > MAX_CANDIDATES || body.next_cursor ? ", ..." : "";
  throw new ArgumentError(
    argument,
    whole.length > 1
      ? { en: "the security code of one of them", ja: "そのうち 1 社の証券コード" }
      : { en: "the full company name or its code", ja: "正式な会社名全体かコード" },
    name,
    whole.length > 1
      ? {
          en: `"${typed}" is the name of several listed companies (${list}${more})`,
          ja: `「${typed}」という名前の上場会社が複数あります（${list}${more}）`,
        }
      : {
          en: `"${typed}" only partly matches listed companies (${list}${more})`,
          ja: `「${typed}」は上場会社名の一部にしか一致しません（${list}${more}）`,
        },
  );
}
