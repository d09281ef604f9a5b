// TSE 33 industry names and the TSE 17 sector each belongs to, as the sample data uses them.
// The names themselves have one owner: src/contract/tse-industries.ts (client checks, task pane).

import {
  TSE17_SECTORS as SECTORS,
  TSE33_INDUSTRIES as INDUSTRIES,
} from "../../src/contract/tse-industries";

/** TSE 33 industry -> TSE 17 sector. */
export const TSE33_TO_TSE17: Readonly<Record<string, string>> = Object.fromEntries(
  INDUSTRIES.map((i) => [i.ja, i.sector]),
);

export const TSE33_INDUSTRIES: readonly string[] = INDUSTRIES.map((i) => i.ja);

export const TSE17_SECTORS: readonly string[] = SECTORS.map((s) => s.ja);
