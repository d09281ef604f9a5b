// Whether the reopen's saved storage (bench/reopen-only.ts) was stored by the running version, whose reopen it is meant to measure.

import { readFileSync } from "node:fs";
import { deserialize } from "node:v8";
import { storedStamp, type StoredRecord } from "../src/client";

/**
 * A warning line when records of the saved storage at `storagePath` bear another version's stamp
 * (or none), else "". Such a record is walked in full by the stored-answer check when read back
 * (src/client/stored-stamp.ts), which a reopen of the add-in's own storage never does: measured
 * over a storage saved before the stamp, Model 500's reopen was 3.74 × its floor instead of ~2.5 ×
 * (response-check.ts `passes` and `clean`, ~0.9 s of CPU).
 */
export function otherVersionWarning(storagePath: string): string {
  const saved = deserialize(readFileSync(storagePath)) as { records: [string, Uint8Array][] };
  const stamp = storedStamp();
  let other = 0;
  for (const [, bytes] of saved.records)
    if ((deserialize(bytes) as StoredRecord).checked !== stamp) other += 1;
  if (other === 0) return "";
  return `warning: ${other} of ${saved.records.length} saved answers were stored by another version (stored-stamp.ts): this reopen checks each in full, as the add-in's own storage never needs; REOPEN_FRESH=1 stores them anew\n`;
}
