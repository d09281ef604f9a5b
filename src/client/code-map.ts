// The security code <-> EDINET code registry (and year-end months): learned from answers, so resolution rarely needs a request.

import { lifetimesMoved, type CompanyKnowledge } from "./freshness";

/** One partition's pairs, both ways, and the year ends its answers showed. */
interface Pairs {
  edinetBySecurity: Map<string, string>;
  securityByEdinet: Map<string, string>;
  /** Fiscal year-end month (0..11) by security or EDINET code (freshness.ts CompanyKnowledge). */
  yearEndByCode: Map<string, number>;
}

/** Pairs remembered per partition (a model names a few hundred companies). */
const MAX_PAIRS = 50_000;

/**
 * The add-in's one registry of security code <-> EDINET code pairs, per cache partition (pairs are
 * answers too; the sandbox's sample companies need not match production's). The client
 * fills it from every answer that states a pair (`codePairsIn`, /financials by security code, the
 * EDINET look-up); EDINET resolution and company resolution read it.
 *
 * @example
 * registry.learn(partition, "7203", "E02144");
 * registry.securityOf(partition, "E02144"); // "7203"
 */
export class CodeRegistry {
  readonly #byPartition = new Map<string, Pairs>();

  learn(partition: string, security: string, edinet: string): void {
    const pairs = this.#pairs(partition);
    if (pairs.edinetBySecurity.size >= MAX_PAIRS) {
      pairs.edinetBySecurity.clear();
      pairs.securityByEdinet.clear();
    }
    pairs.edinetBySecurity.set(security, edinet);
    pairs.securityByEdinet.set(edinet, security);
  }

  /** The EDINET code of a security code, when an answer of this partition named both. */
  edinetOf(partition: string, security: string): string | undefined {
    return this.#byPartition.get(partition)?.edinetBySecurity.get(security);
  }

  /** The security code of an EDINET code, when an answer of this partition named both. */
  securityOf(partition: string, edinet: string): string | undefined {
    return this.#byPartition.get(partition)?.securityByEdinet.get(edinet);
  }

  /** What freshness.ts reads and learns of this partition's companies. */
  knowledge(partition: string): CompanyKnowledge {
    return {
      edinetOf: (security) => this.edinetOf(partition, security),
      yearEndOf: (code) => this.#byPartition.get(partition)?.yearEndByCode.get(code),
      learnYearEnd: (code, month) => {
        const ends = this.#pairs(partition).yearEndByCode;
        if (ends.size >= MAX_PAIRS) ends.clear();
        // A dividends answer of the company decided on another month (or the March guess) is
        // decided again (freshness.ts dividendsCalendar reads it).
        if (ends.get(code) !== month) lifetimesMoved(code);
        ends.set(code, month);
      },
    };
  }

  #pairs(partition: string): Pairs {
    let pairs = this.#byPartition.get(partition);
    if (pairs === undefined) {
      pairs = {
        edinetBySecurity: new Map(),
        securityByEdinet: new Map(),
        yearEndByCode: new Map(),
      };
      this.#byPartition.set(partition, pairs);
    }
    return pairs;
  }

  /** Forget key: the pairs of these partitions go. */
  forget(partitions: readonly string[]): void {
    for (const id of partitions) this.#byPartition.delete(id);
  }

  clear(): void {
    this.#byPartition.clear();
  }
}
