// Whether a disclosure is visible at the data clock (openapi.json info.description: timely items
// after 24 hours).
import type { DisclosureRecord } from "../data/model";
import { isPastTimelyDelay } from "./data-clock";

/**
 * Timely-system (`tdnet`) documents are available 24 hours or more after disclosed_at; statutory
 * documents from their disclosure time. Nothing disclosed after the data clock is visible.
 */
export function isVisible(record: DisclosureRecord, now: string): boolean {
  const disclosedAt = record.meta.disclosed_at;
  if (record.item.source === "tdnet") return isPastTimelyDelay(disclosedAt, now);
  return Date.parse(disclosedAt) <= Date.parse(now);
}
