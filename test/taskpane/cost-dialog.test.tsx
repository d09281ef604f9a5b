// Update's and Refresh all's question: the cost, the requests left today, and the warning when today cannot cover it, in both languages.

import { CostLines, refreshQuestion, updateQuestion } from "../../taskpane/components/cost-dialog";
import { translator } from "../../taskpane/i18n/messages";
import type { Lang } from "../../taskpane/i18n/language";
import { updateShortLine } from "../../taskpane/open/open-summary";
import type { PaneClient } from "../../taskpane/state/pane-client";
import type { RevalidationStatus } from "../../src/client";
import { renderInPane } from "./render-in-pane";

/** What the queue holds for Update: 90 requests for 30 companies, 750 of the 800 a day spent. */
const DUE: RevalidationStatus = {
  companies: 30,
  requests: 90,
  inFlight: 0,
  estimatedMs: 90_000,
  paused: "user",
  dailyBudget: 800,
  spentToday: 750,
  changed: 0,
  unchecked: 0,
};

/** The dialog's text as the analyst reads it (tags and Fluent's markup stripped). */
function shown(question: Parameters<typeof CostLines>[0]["question"], lang: Lang): string {
  const html = renderInPane(<CostLines question={question} />, {} as PaneClient, lang);
  return html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

describe("Update's question", () => {
  it("warns when its requests exceed the background budget left today", () => {
    // 800 − 750 = 50 left of the budget, 500 of the API's: 40 of the 90 wait for tomorrow.
    const en = shown(updateQuestion(translator("en"), DUE, 500), "en");
    expect(en).toContain("Update: 30 companies, at most 90 requests");
    expect(en).toContain("Requests left today: 500.");
    expect(en).toContain("more than is left today (50): 40 requests wait for tomorrow");
    const ja = shown(updateQuestion(translator("ja"), DUE, 500), "ja");
    expect(ja).toContain("本日の残り（50件）を超えています。40件は明日に回り");
  });

  it("warns when its requests exceed the API's requests left today", () => {
    const fresh = { ...DUE, spentToday: 0 };
    const en = shown(updateQuestion(translator("en"), fresh, 60), "en");
    expect(en).toContain("more than is left today (60): 30 requests wait for tomorrow");
  });

  it("says nothing more when today covers it, or when nothing is known of today", () => {
    const covered = { ...DUE, spentToday: 0 };
    expect(shown(updateQuestion(translator("en"), covered, 500), "en")).not.toContain(
      "more than is left",
    );
    expect(updateShortLine({ ...covered, dailyBudget: undefined }, undefined)).toBeUndefined();
    expect(updateShortLine({ ...covered, requests: 800 }, undefined)).toBeUndefined();
    expect(updateShortLine({ ...covered, requests: 801 }, undefined)?.vars).toEqual({
      n: 1,
      left: 800,
    });
  });
});

describe("Refresh all's question, on the same dialog", () => {
  const estimate = { formulaRequests: 3_290, imports: 2 };

  it("warns when its requests exceed the API's requests left today", () => {
    const short = { formulas: true, requests: 3_292, remaining: 1_000, enough: false, ...estimate };
    const en = shown(refreshQuestion(translator("en"), short), "en");
    expect(en).toContain("sends about 3292 requests (3290 for KAISHA formulas");
    expect(en).toContain("Requests left today: 1000.");
    expect(en).toContain("more than today’s remaining requests");
    expect(shown(refreshQuestion(translator("ja"), short), "ja")).toContain(
      "本日の残りを超えています",
    );
  });

  it("does not warn when they are covered, and says when the usage check failed", () => {
    const fine = { formulas: true, requests: 3_292, remaining: 4_000, enough: true, ...estimate };
    expect(shown(refreshQuestion(translator("en"), fine), "en")).not.toContain("more than today");
    const unknown = { ...fine, remaining: undefined, enough: undefined };
    expect(shown(refreshQuestion(translator("en"), unknown), "en")).toContain(
      "Requests left today: unknown",
    );
  });
});
