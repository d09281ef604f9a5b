// The full path's rounds, shared by defineCell and defineTable: compute, fetch what it lacked,
// compute again, until it gives a value (or throws).

import { fetchedAnswers, type Answers } from "./answers";

/**
 * More rounds than any function needs (a window, an older window, the semiannual halves): past
 * it, compute is taken to be lacking without end and the call fails instead of spinning.
 */
const MAX_ROUNDS = 16;

/** What `compute` returns when an answer it read is not at hand (the reader noted which). */
export const LACKING: unique symbol = Symbol("lacking");

/**
 * `compute` over the answers this call fetched: the first round's answers (`first`) together once
 * compute lacks one of them (computing first: a value refused before any request, a date in the
 * future, sends none), then one answer per further round (an older window, the semiannual halves).
 *
 * @example await inRounds(needs, (answers) => compute(args, subject, answers), (q) => fetch(q))
 */
export async function inRounds<Q extends object, B, V>(
  first: readonly Q[],
  compute: (answers: Answers<Q, B>) => V | typeof LACKING,
  fetch: (query: Q) => Promise<B>,
): Promise<V> {
  const answers = fetchedAnswers<Q, B>();
  let round: readonly Q[] | undefined = first;
  for (let rounds = 1; ; rounds++) {
    if (rounds > MAX_ROUNDS) throw new Error(`no value after ${MAX_ROUNDS} rounds of answers`);
    answers.begin();
    const value = compute(answers);
    if (value !== LACKING) return value;
    const need = answers.lacked();
    if (need === undefined) throw new Error("compute lacked an answer it did not read");
    const wanted: readonly Q[] =
      round !== undefined && round.includes(need) ? round.filter((q) => !answers.has(q)) : [need];
    round = undefined;
    const bodies = await Promise.all(wanted.map(fetch));
    wanted.forEach((q, i) => answers.add(q, bodies[i] as B));
  }
}
