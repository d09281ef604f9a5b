// The `company` argument read without a request: codes in every common spelling, entities, or a name to look up.

import { normalizeText } from "../util/normalize";
import { containsSecret } from "../util/redact";
import { ArgumentError, isOmitted, scalarOf, type Bilingual, type Company } from "./args";
import { companyCodeOfEntity, isEntity, isRichObject } from "./rich-value";

/** A company as typed: a code (no request needed) or a name to resolve through /securities?q=. */
export type CompanyRef = Company | { name: string };

/** Every accepted form, for #VALUE! messages and the help page. */
export const COMPANY_FORMS: Bilingual = {
  en: "a security code (7203, 130A, 72030), XTKS:7203, 7203.T, 7203 JP, an EDINET code (E02144), a whole company name, or a COMPANY / Stocks entity",
  ja: "証券コード（7203、130A、72030）、XTKS:7203、7203.T、7203 JP、EDINET コード（E02144）、会社名（全体）、COMPANY・株式データ型のエンティティ",
};

/**
 * openapi.json listSecurities: q is at most 100 characters; one character matches too much to name
 * a company.
 */
const MAX_NAME_CHARS = 100;
const MIN_NAME_CHARS = 2;

/**
 * Exchange spellings around a code: MIC prefixes (XTKS:7203, also TSE:/TYO:/JP:), Yahoo suffixes
 * (.T Tokyo, .N Nagoya, .F Fukuoka, .S Sapporo) and Bloomberg's "7203 JP" / "7203 JT Equity".
 */
const PREFIXED = /^(?:XTKS|XJPX|XNGO|XFKA|XSAP|TSE|TYO|JPX|JP|NSE|FSE|SSE)\s*[:：]\s*(\S+)$/;
const SUFFIXED = /^(\S+?)\s*(?:\.(?:T|TYO|JP|N|F|S)|\s(?:JP|JT)(?:\s+EQUITY)?)$/;

/** JPX codes start with a digit (7203, 130A); a 5th digit is the old check digit or a class. */
const SECURITY_CODE = /^[1-9][0-9A-Z]{3}[0-9]?$/;
const EDINET_CODE = /^[EG]\d{5}$/;

/** A code written as text or number -> Company, or undefined when it is no code. */
function companyOfCode(raw: string): Company | undefined {
  let code = raw.toUpperCase();
  code = PREFIXED.exec(code)?.[1] ?? SUFFIXED.exec(code)?.[1] ?? code;
  if (EDINET_CODE.test(code)) return { edinet_code: code };
  if (!SECURITY_CODE.test(code)) return undefined;
  // 72030: the 5-digit form with a trailing 0 (the old check digit of common stock) is 7203.
  if (/^\d{4}0$/.test(code)) code = code.slice(0, 4);
  return { security_code: code };
}

/**
 * Reads `company`: 7203, "7203", "７２０３", "130a", 72030, "XTKS:7203", "7203.T", "7203 JP",
 * "E02144", a COMPANY or Stocks entity, or else a name (text with a letter that is no code form).
 * Aliases of one company become the same Company, so they share one cached answer.
 *
 * @example companyRefArg("7203.T") // { security_code: "7203" }
 * @example companyRefArg("トヨタ")  // { name: "トヨタ" }
 */
export function companyRefArg(value: unknown, argument = "company"): CompanyRef {
  const cell = scalarOf(value);
  if (Array.isArray(cell))
    throw new ArgumentError(argument, {
      en: `one cell: ${COMPANY_FORMS.en}`,
      ja: `1 つのセル（${COMPANY_FORMS.ja}）`,
    });
  if (isOmitted(cell)) throw new ArgumentError(argument, COMPANY_FORMS);
  if (isEntity(cell)) return entityCompany(cell, argument);
  if (isRichObject(cell) || (typeof cell === "object" && cell !== null))
    throw new ArgumentError(argument, COMPANY_FORMS, cell);
  if (typeof cell === "number") {
    const code = Number.isInteger(cell) && cell > 0 ? companyOfCode(String(cell)) : undefined;
    if (code === undefined) throw new ArgumentError(argument, COMPANY_FORMS, cell);
    return code;
  }
  if (typeof cell !== "string") throw new ArgumentError(argument, COMPANY_FORMS, cell);
  const text = (normalizeText(cell) ?? "").replace(/\s+/g, " ");
  if (text === "") throw new ArgumentError(argument, COMPANY_FORMS);
  const code = companyOfCode(text);
  if (code !== undefined) return code;
  // Digits and signs alone are a mistyped code, never a name to search for (it would cost a request).
  if (!/\p{L}/u.test(text) || text.length < MIN_NAME_CHARS || text.length > MAX_NAME_CHARS)
    throw new ArgumentError(argument, COMPANY_FORMS, cell);
  // A name travels in a URL (q=): text shaped like an API key (a long run of letters and digits,
  // or the key itself) is refused without echoing it, so a key pasted here never leaves.
  if (containsSecret(text) || /[A-Za-z0-9_-]{20,}/.test(text))
    throw new ArgumentError(argument, COMPANY_FORMS);
  return { name: text };
}

function entityCompany(entity: Parameters<typeof companyCodeOfEntity>[0], argument: string) {
  const found = companyCodeOfEntity(entity);
  if (!found.ok) {
    const foreign = found.reason === "foreign_exchange";
    throw new ArgumentError(
      argument,
      foreign
        ? {
            en: `a Japanese listing (this entity trades on ${found.exchange ?? "?"})`,
            ja: `日本の上場銘柄（このエンティティの取引所は ${found.exchange ?? "?"}）`,
          }
        : {
            en: "an entity with a security code, ticker or EDINET code (COMPANY's card or a Stocks cell)",
            ja: "証券コード・ティッカー・EDINET コードを持つエンティティ（COMPANY のカードか株式データ型）",
          },
      entity,
    );
  }
  const code = companyOfCode(normalizeText(found.code) ?? "");
  if (code === undefined)
    throw new ArgumentError(
      argument,
      {
        en: `an entity whose code is a Japanese security or EDINET code (got ${found.code})`,
        ja: `証券コードか EDINET コードを持つエンティティ（${found.code}）`,
      },
      entity,
    );
  return code;
}
