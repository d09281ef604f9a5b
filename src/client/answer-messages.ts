// English and Japanese texts for failures only an answer from the network can give: the chunks
// that meet them (send, answer-check, paginate) import this table, so the runtime page carries none.

import type { MessagePair } from "./messages";

/** The texts of bad answers, beside MESSAGES (messages.ts), which the runtime page holds. */
export const ANSWER_MESSAGES = {
  /** A 404 naming what was asked for (not-found.ts `namedNotFound`). */
  notFoundFor: (subject: string, english: string): MessagePair => ({
    en: english.includes(subject) ? english : `${subject}: ${english}`,
    ja: `${subject} に該当するデータが見つかりません：コードやIDを確認してください`,
  }),
  tooLarge: (limitBytes: number): MessagePair => ({
    en: `Answer too large (over ${Math.round(limitBytes / 1048576)} MB): ask for fewer rows or a shorter period`,
    ja: `APIの応答が大きすぎます（${Math.round(limitBytes / 1048576)} MB超）：件数や期間を絞ってください`,
  }),
  unexpectedField: (field: string): MessagePair => ({
    en: `Unexpected answer from the API (field ${field})`,
    ja: `APIの応答が想定と異なります（項目 ${field}）`,
  }),
  /** A value of another type than the contract's (`expected`: what it gives, in each language). */
  wrongType: (field: string, expected: MessagePair): MessagePair => ({
    en: `Unexpected answer from the API (field ${field}: ${expected.en} expected)`,
    ja: `APIの応答が想定と異なります（項目 ${field} は${expected.ja}のはずです）`,
  }),
  /** Two rows for one period or date whose figures differ: neither may be picked by position. */
  duplicateRow: (field: string, first: string): MessagePair => ({
    en: `Unexpected answer from the API (field ${field}: the same period as ${first} with other figures)`,
    ja: `APIの応答が想定と異なります（項目 ${field} が ${first} と同じ期間で数値が異なります）`,
  }),
  tooDeep: (levels: number): MessagePair => ({
    en: `Unexpected answer from the API (nested over ${levels} levels deep)`,
    ja: `APIの応答が想定と異なります（${levels}階層を超える入れ子）`,
  }),
  repeatedCursor: (): MessagePair => ({
    en: "The API returned the same page cursor twice: paging stopped",
    ja: "APIが同じページ位置を繰り返し返したため、ページ取得を中止しました",
  }),
};
