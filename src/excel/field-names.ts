// Field, item and metric names as users type them -> API keys: keys, Japanese labels, snake/camel forms, nearest-key hints.

import { FIELD_DICTIONARY, type Dataset } from "../contract";
import { ArgumentError, dateForName, type Bilingual } from "./args";
import { labelJa, withoutPercentNote } from "./labels";
import { argumentNameJa } from "./argument-names";

/** A name a user may type for one key: the key itself and the Japanese label the functions show. */
export interface NameCandidate {
  key: string;
  /** Japanese label (as headers and FIELDS show it), when the key has one. */
  label?: string;
}

/** The outcome of resolving one typed name. */
type NameMatch =
  | { ok: true; key: string }
  | { ok: false; reason: "unknown"; suggestion?: NameCandidate }
  | { ok: false; reason: "ambiguous"; keys: string[] };

/**
 * Words analysts type for a key under another name (English financial vocabulary). Used only to
 * suggest, never to accept: `operating_income` is a real key in segments and must not silently mean
 * `operating_profit` elsewhere.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  sales: ["revenue", "revenues", "netsales", "turnover", "uriage"],
  operating_profit: ["operatingincome", "ebitoperating", "opincome", "operatingprofitloss"],
  operating_income: ["operatingprofit"],
  net_income: ["netprofit", "profit", "netearnings", "earnings"],
  income_before_tax: ["pretaxincome", "pretaxprofit", "profitbeforetax"],
  capital_expenditure: ["capex"],
  fcf: ["freecashflow"],
  operating_cf: ["operatingcashflow", "cfo"],
  investing_cf: ["investingcashflow", "cfi"],
  financing_cf: ["financingcashflow"],
  rd_expenses: ["randd", "researchanddevelopment"],
  eps: ["earningspershare"],
  bps: ["bookvaluepershare"],
  dps: ["dividendpershare", "dividendspershare"],
  market_cap: ["marketcapitalization", "marketcapitalisation", "mktcap"],
  close: ["price", "closeprice", "last"],
  marketCap: ["marketcapitalization", "mktcap"],
};

/**
 * The comparable form of a name: full-width folded (NFKC), trimmed, lower case, without `_`, `-`,
 * spaces and dots, so `operating_profit`, `OperatingProfit`, `operating-profit` and
 * `ｏｐｅｒａｔｉｎｇ＿ｐｒｏｆｉｔ` compare equal (snake_case and camelCase of screening metrics too).
 * @internal Tests check name folding directly; the functions reach it through fieldKey.
 */
export function comparableName(text: string): string {
  return text
    .normalize("NFKC")
    .trim()
    .toLowerCase()
    .replace(/[\s_\-.・]+/g, "");
}

/** A Japanese label compared without spaces and with its parenthetical gloss optional. */
function labelForms(label: string): string[] {
  const full = comparableName(label);
  const bare = comparableName(label.normalize("NFKC").replace(/\([^)]*\)\s*$/, ""));
  return bare !== "" && bare !== full ? [full, bare] : [full];
}

/** snake_case -> camelCase (`market_cap` -> `marketCap`, `sma25_gap_pct` -> `sma25GapPct`). */
export function snakeToCamel(text: string): string {
  return text.replace(/_+([a-z0-9])/gi, (_, c: string) => c.toUpperCase());
}

/** Edit distance (Levenshtein), for the nearest-key suggestion. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j] as number;
      prev[j] = Math.min(
        above + 1,
        (prev[j - 1] as number) + 1,
        diag + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diag = above;
    }
  }
  return prev[b.length] as number;
}

/**
 * The key a user most likely meant: a known synonym first (`revenue` -> `sales`), else a key or
 * label containing what was typed, else one within a small edit distance (a third of the name, at
 * least 2). Undefined when nothing is close: a wild guess misleads.
 * @internal Tests check suggestions directly; the functions reach it through fieldKey.
 */
export function nearestName(
  typed: string,
  candidates: readonly NameCandidate[],
): NameCandidate | undefined {
  const t = comparableName(typed);
  if (t === "") return undefined;
  for (const c of candidates) {
    if ((SYNONYMS[c.key] ?? []).includes(t)) return c;
  }
  // Ranked by: a name that contains what was typed (a prefix or a word of it: 電気 -> 電気機器),
  // then the smallest edit distance to the key, its label or a synonym (revenu -> revenue -> sales).
  const containsOk = t.length >= (/[^\u0020-\u007e]/.test(t) ? 2 : 3);
  let best: { c: NameCandidate; rank: number; d: number } | undefined;
  for (const c of candidates) {
    const forms = [
      comparableName(c.key),
      ...(c.label ? labelForms(c.label) : []),
      ...(SYNONYMS[c.key] ?? []),
    ];
    const within = Math.max(2, Math.floor(t.length / 3));
    for (const f of forms) {
      const rank = containsOk && f.includes(t) ? 0 : 1;
      // The distance is at least the difference in length: a text far longer than any name (a
      // pasted paragraph, up to 32,767 characters a cell) is not measured against every name.
      if (rank === 1 && Math.abs(t.length - f.length) > within) continue;
      const d = distance(t, f);
      if (rank === 1 && d > within) continue;
      if (best === undefined || rank < best.rank || (rank === best.rank && d < best.d)) {
        best = { c, rank, d };
      }
    }
  }
  return best?.c;
}

/**
 * Resolves what a user typed to one key: the exact key, the key in any case or in snake_case /
 * camelCase / full width, or the Japanese label the functions display (with or without its
 * parenthetical gloss: `EPS` and `EPS（1株当たり利益）`). Several keys with one form -> ambiguous.
 *
 * @example resolveName("売上高", datasetNames("financials")) // { ok: true, key: "sales" }
 * @example resolveName("operatingProfit", datasetNames("financials")) // { ok: true, key: "operating_profit" }
 * The functions reach it through fieldKey; the builder reads a formula's item with it.
 */
export function resolveName(typed: string, candidates: readonly NameCandidate[]): NameMatch {
  const exact = candidates.find((c) => c.key === typed);
  if (exact !== undefined) return { ok: true, key: exact.key };
  // A header copied from a table names a percentage with （%）: `配当性向（%）` is payout_ratio.
  const t = comparableName(withoutPercentNote(typed));
  // Most specific first: the key's forms, the whole label, then the label without its gloss
  // (`時価総額` is market_cap's whole label before it is the bare form of `時価総額（高値）`).
  const stages: ((c: NameCandidate) => boolean)[] = [
    (c) => comparableName(c.key) === t,
    (c) => c.label !== undefined && comparableName(c.label) === t,
    (c) => c.label !== undefined && labelForms(c.label).includes(t),
  ];
  for (const matches of stages) {
    const found = [...new Set(candidates.filter(matches).map((c) => c.key))];
    if (found.length === 1) return { ok: true, key: found[0] as string };
    if (found.length > 1) return { ok: false, reason: "ambiguous", keys: found };
  }
  const suggestion = nearestName(typed, candidates);
  return suggestion
    ? { ok: false, reason: "unknown", suggestion }
    : { ok: false, reason: "unknown" };
}

/** Candidates of the keys of a dataset (or given keys of it) with their Japanese labels. */
export function datasetNames(dataset: Dataset, keys?: readonly string[]): NameCandidate[] {
  const list = keys ?? FIELD_DICTIONARY[dataset].map((f) => f.key);
  return list.map((key) => {
    const label = labelJa(key, dataset);
    return label !== undefined ? { key, label } : { key };
  });
}

/** `key（label）` for messages, or the key alone. */
function shown(c: NameCandidate, lang: "en" | "ja"): string {
  if (c.label === undefined) return c.key;
  return lang === "ja" ? `${c.key}（${c.label}）` : `${c.key} (${c.label})`;
}

/**
 * #VALUE! for a name that is no key: says what was typed, the nearest key when one is close
 * ("did you mean operating_profit?") or the keys a name was ambiguous between, and where the keys
 * are listed. Bilingual like every argument error; thrown before any request.
 * @internal Tests check the refusal's class and suggestion.
 */
export class FieldNameError extends ArgumentError {
  readonly suggestion: string | undefined;

  constructor(argument: string, typed: string, match: NameMatch, where: Bilingual) {
    super(argument, where, typed);
    const cut = typed.length > 40 ? `${typed.slice(0, 37)}...` : typed;
    const got = JSON.stringify(cut);
    // Japanese messages name the argument as Excel's Japanese formula help does (項目).
    const nameJa = argumentNameJa(argument);
    const gotJa = `「${cut}」`;
    const suggestion = !match.ok && match.reason === "unknown" ? match.suggestion : undefined;
    this.suggestion = suggestion?.key;
    // A date where a name belongs (=PRICE(7203,DATE(2030,1,1)): the date one argument early)
    // arrives as its serial: say it is a date, not "47484".
    const date = dateForName(argument, typed);
    let en: string;
    let ja: string;
    if (date !== undefined) {
      en = `${date.en}. ${argument}: use ${where.en}`;
      ja = `${date.ja}。${nameJa} には${where.ja}を指定してください`;
    } else if (!match.ok && match.reason === "ambiguous") {
      en = `${argument} ${got} names several keys (${match.keys.join(", ")}): type the key`;
      ja = `${nameJa}${gotJa} は複数のキー（${match.keys.join("、")}）に当たります：キーで指定してください`;
    } else if (suggestion !== undefined) {
      en = `${argument} ${got}: did you mean ${shown(suggestion, "en")}? Keys: ${where.en}`;
      ja = `${nameJa}${gotJa}：${shown(suggestion, "ja")}のことですか？ キー：${where.ja}`;
    } else {
      en = `${argument} ${got} is not a key: use ${where.en}`;
      ja = `${nameJa}${gotJa} はキーではありません：${where.ja} を指定してください`;
    }
    this.message = en;
    (this as { messageJa: string }).messageJa = ja;
  }
}

/**
 * One typed name -> its key, or FieldNameError.
 *
 * @example fieldKey("営業利益", datasetNames("financials"), "item", where) // "operating_profit"
 */
export function fieldKey(
  typed: string,
  candidates: readonly NameCandidate[],
  argument: string,
  where: Bilingual,
): string {
  const match = resolveName(typed, candidates);
  if (match.ok) return match.key;
  throw new FieldNameError(argument, typed, match, where);
}

/** Where the keys of a dataset are listed, for messages (`one`: an argument taking one name). */
export function fieldsWhere(dictionary: string, one = false): Bilingual {
  return one
    ? {
        en: `a key or Japanese label from =KAISHA.FIELDS("${dictionary}")`,
        ja: `=KAISHA.FIELDS("${dictionary}") のキーまたは日本語名`,
      }
    : {
        en: `a key or Japanese label from =KAISHA.FIELDS("${dictionary}"), comma separated, or "*"`,
        ja: `=KAISHA.FIELDS("${dictionary}") のキーまたは日本語名（カンマ区切り）、または "*"`,
      };
}
