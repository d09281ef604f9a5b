// English and Japanese user-facing texts for every client error; each one says what to do next.

import type { components } from "../contract/generated/api-types";

export type Lang = "en" | "ja";

/** A message in both languages. */
export interface MessagePair {
  en: string;
  ja: string;
}

/**
 * openapi.json ErrorResponse: the `details[].reason` words, as openapi.json's ErrorDetail
 * enumerates them.
 */
type ValidationReason = components["schemas"]["ErrorDetail"]["reason"];

/** One entry of `error.details` (openapi.json ErrorDetail). */
export interface ErrorDetail {
  param: string;
  reason: ValidationReason | (string & {});
  expected?: string;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * An instant as the user's clock shows it ("Sat 28 Nov, 00:00" / "11/28(土) 00:00"), for
 * messages that say when something happens (the pane's too).
 */
export function localTime(ms: number, lang: Lang): string {
  const options: Intl.DateTimeFormatOptions = {
    month: lang === "ja" ? "numeric" : "short",
    day: "numeric",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  };
  return new Date(ms).toLocaleString(lang === "ja" ? "ja-JP" : "en-GB", options);
}

function quoteValue(value: unknown): string {
  if (value === undefined) return "";
  let text: string;
  if (typeof value === "string") text = JSON.stringify(value);
  else if (value instanceof Date)
    text = Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  else if (typeof value === "number" || typeof value === "boolean") text = String(value);
  else if (value === null) text = "null";
  else text = Object.prototype.toString.call(value);
  // A long value is not echoed at all: cutting it could show part of a secret pasted by mistake.
  return text.length > 40 ? `(${text.length} characters)` : text;
}

/** Describes one validation detail; `value` (optional) is the offending input. */
function detailMessage(detail: ErrorDetail, value?: unknown): MessagePair {
  const p = detail.param;
  const exp = detail.expected;
  const got = value === undefined ? "" : ` ${quoteValue(value)}`;
  const gotJa = value === undefined ? "" : `（入力: ${quoteValue(value)}）`;
  switch (detail.reason) {
    case "missing":
      return exp?.startsWith("exactly one of")
        ? {
            en: `Give ${exp}`,
            ja: `${exp.replace("exactly one of ", "")} のどちらか一方を指定してください`,
          }
        : { en: `${p} is required: give a value`, ja: `${p} を指定してください` };
    case "conflict":
      return {
        en: `Give only one of ${exp?.replace("exactly one of ", "") ?? p}, not both`,
        ja: `${exp?.replace("exactly one of ", "") ?? p} はどちらか一方だけを指定してください`,
      };
    case "invalid_type":
      return {
        en: `${p}${got} has the wrong type: give ${exp ?? "a valid value"}`,
        ja: `${p} の型が正しくありません${gotJa}：${exp ?? "正しい値"} を指定してください`,
      };
    case "invalid_format":
      return {
        en: `${p}${got} has an invalid format: expected ${exp ?? "a valid value"}`,
        ja: `${p} の形式が正しくありません${gotJa}：${exp ?? "正しい形式"} で指定してください`,
      };
    case "out_of_range":
      return {
        en: `${p}${got} is out of range: expected ${exp ?? "a value within the allowed range"}`,
        ja: `${p} が範囲外です${gotJa}：${exp ?? "許容範囲内の値"} で指定してください`,
      };
    case "unknown_value":
      return {
        en: `${p}${got} is not an accepted value: use ${exp ?? "a documented value"}`,
        ja: `${p} の値が使えません${gotJa}：${exp ?? "指定可能な値"} から選んでください`,
      };
    case "too_many_items":
      return {
        en: `Too many conditions in ${p}: ${exp ?? "reduce the number of conditions"}`,
        ja: `${p} の条件が多すぎます：${exp ?? "条件の数を減らしてください"}`,
      };
    default:
      return {
        en: `${p}${got} is invalid${exp === undefined ? "" : `: expected ${exp}`}`,
        ja: `${p} が正しくありません${gotJa}${exp === undefined ? "" : `：${exp}`}`,
      };
  }
}

/** Message for a validation failure: the first problem, plus how many more there are. */
export function validationMessage(
  details: readonly ErrorDetail[],
  values?: Readonly<Record<string, unknown>>,
): MessagePair {
  const first = details[0];
  if (first === undefined) return { en: "Invalid parameter", ja: "パラメータが正しくありません" };
  const pair = detailMessage(first, values?.[first.param]);
  // Details that say the same thing (both halves of an exactly-one-of pair) count once.
  const distinct = new Set(details.map((d) => detailMessage(d, values?.[d.param]).en));
  const more = distinct.size - 1;
  if (more <= 0) return pair;
  return { en: `${pair.en} (and ${more} more)`, ja: `${pair.ja}（ほか${more}件）` };
}

/** The fixed texts, by error code. Functions take what varies (status, seconds, server text). */
export const MESSAGES = {
  missingKey: (): MessagePair => ({
    en: "API key not set: open the Kaisha pane",
    ja: "APIキーが未設定です：Kaishaパネルを開いて設定してください",
  }),
  unauthorized: (): MessagePair => ({
    en: "API key rejected (401): check the key in the Kaisha pane",
    ja: "APIキーが認証されませんでした（401）：Kaishaパネルでキーを確認してください",
  }),
  badKey: (): MessagePair => ({
    en: "The API key contains invisible or full-width characters: retype it in the Kaisha pane",
    ja: "APIキーに見えない文字または全角文字が含まれています：Kaishaパネルで入力し直してください",
  }),
  forbidden: (): MessagePair => ({
    en: "Not permitted for this key (403): your plan may not include this data",
    ja: "このキーでは利用できません（403）：ご契約のプランにこのデータが含まれていない可能性があります",
  }),
  deadline: (): MessagePair => ({
    en: "Still waiting for the API: recalculate to retry",
    ja: "APIの応答を待っています：再計算して再試行してください",
  }),
  notFound: (serverText?: string): MessagePair => ({
    en: `Not found${serverText ? ` (${serverText})` : ""}: check the code or ID`,
    ja: "該当するデータが見つかりません：コードやIDを確認してください",
  }),
  /** A 404 for a named code or id (`english`: the message with the API's own text). */
  noResults: (): MessagePair => ({
    en: "No data for these conditions: widen the period or check the code",
    ja: "条件に該当するデータがありません：期間やコードを見直してください",
  }),
  rateLimited: (retryAfterMs?: number): MessagePair =>
    retryAfterMs === undefined
      ? {
          en: "Too many requests (429): wait a minute and recalculate",
          ja: "リクエストが多すぎます（429）：1分ほど待ってから再計算してください",
        }
      : {
          en: `Too many requests (429): retry in ${seconds(retryAfterMs)} s`,
          ja: `リクエストが多すぎます（429）：${seconds(retryAfterMs)}秒後に再計算してください`,
        },
  /** `resumesAt`: when sending resumes (the next JST midnight), said in the user's local time. */
  dailyLimit: (resumesAt?: number): MessagePair =>
    resumesAt === undefined
      ? { en: "Daily request limit reached", ja: "本日のリクエスト上限に達しました" }
      : {
          en: `Daily request limit reached: nothing is sent until ${localTime(resumesAt, "en")} (midnight in Japan)`,
          ja: `本日のリクエスト上限に達しました：${localTime(resumesAt, "ja")}（日本時間0時）まで送信しません`,
        },
  keyRefused: (): MessagePair => ({
    en: "The API refused this key (401): nothing more is sent with it; enter a new key in the Kaisha pane",
    ja: "APIがこのキーを拒否しました（401）：このキーでは送信しません。Kaishaパネルで新しいキーを入力してください",
  }),
  dataUnavailable: (): MessagePair => ({
    en: "Data temporarily unavailable (503): retry later",
    ja: "データが一時的に利用できません（503）：しばらくしてから再計算してください",
  }),
  serverError: (status: number): MessagePair => ({
    en: `API server error (${status}): retry later`,
    ja: `APIサーバーのエラーです（${status}）：しばらくしてから再計算してください`,
  }),
  connectionFailed: (): MessagePair => ({
    en: "Cannot reach the API: check the network or the connection settings in the Kaisha pane",
    ja: "APIに接続できません：ネットワークまたはKaishaパネルの接続設定を確認してください",
  }),
  timeout: (timeoutMs: number): MessagePair => ({
    en: `No answer from the API within ${seconds(timeoutMs)} s: recalculate to retry`,
    ja: `APIから${seconds(timeoutMs)}秒以内に応答がありません：再計算して再試行してください`,
  }),
  aborted: (): MessagePair => ({
    en: "Request cancelled",
    ja: "リクエストは取り消されました",
  }),
  notCached: (): MessagePair => ({
    en: "Preview: press Enter to fetch",
    ja: "プレビュー：Enter で取得します",
  }),
  badResponse: (what: string): MessagePair => ({
    en: `Unexpected answer from the API (${what}): check the API address in the Kaisha pane`,
    ja: `APIの応答を解釈できません（${what}）：KaishaパネルでAPIの接続先を確認してください`,
  }),
  unexpected: (): MessagePair => ({
    en: "Unexpected error: recalculate, or reopen the Kaisha pane",
    ja: "予期しないエラーが発生しました：再計算するか、Kaishaパネルを開き直してください",
  }),
} as const;
