// The pane's Pause, Resume, Stop and budget field driven against a real queue: what is sent, what is said, what is kept.

import { RevalidationView } from "../../taskpane/components/revalidation-view";
import { BudgetField } from "../../taskpane/components/budget-field";
import type { Lang } from "../../taskpane/i18n/language";
import type { PaneClient } from "../../taskpane/state/pane-client";
import { RevalidationControls } from "../../taskpane/state/revalidation-model";
import { loadBudget } from "../../src/revalidation-budget";
import { recordingFetch, reply, revalidatingClient } from "../client/helpers";
import { renderInPane } from "./render-in-pane";

const HOUR = 3_600_000;
/** Thursday 2026-01-15 10:00 JST. */
const T0 = Date.UTC(2026, 0, 15, 1, 0);
const CODES = ["7203", "6758", "9984", "8306"];

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  } as unknown as Storage;
}

/** Every queue a test made: emptied after it, so no midnight wake-up outlives a failed test. */
const opened: { clear(): void }[] = [];
afterEach(() => {
  for (const queue of opened.splice(0)) queue.clear();
});

/**
 * A client whose latest prices are stored at 10:00 and due after the close; each background
 * request is held until the test lets it go, so the queue stays visible while the test clicks.
 */
async function setup() {
  const held: (() => void)[] = [];
  let holding = false;
  const rec = recordingFetch(async (req) => {
    if (holding) await new Promise<void>((r) => held.push(r));
    return reply(200, {
      fields: [],
      code: new URL(req.url).searchParams.get("code"),
      prices: [],
      next_cursor: null,
      reason: null,
      attribution: { source_label: "x", license_note: "x", processed_by: "x" },
    });
  });
  let now = T0;
  const client = revalidatingClient(rec.fetch, () => now);
  for (const code of CODES) await client.prices({ code });
  rec.requests.length = 0;
  now += 6 * HOUR; // 16:00 JST: every latest price is due
  holding = true;
  const storage = memoryStorage();
  const queue = client.revalidation();
  opened.push(queue);
  const controls = new RevalidationControls(() => queue, storage);
  const view = (lang: Lang = "en") => render(client as unknown as PaneClient, controls, lang);
  /** Lets the held requests go, one turn at a time, until the queue is idle. */
  const drain = async () => {
    holding = false;
    for (let i = 0; i < 20 && (held.length > 0 || queue.status().inFlight > 0); i += 1) {
      held.splice(0).forEach((go) => go());
      await new Promise((r) => setImmediate(r));
    }
    await queue.idle();
  };
  const ask = async () => {
    for (const code of CODES) await client.prices({ code });
    await new Promise((r) => setImmediate(r));
  };
  return { rec, queue, controls, storage, view, drain, ask };
}

/** The pane's status region and the Refresh section's budget field, over the same controls. */
function render(client: PaneClient, controls: RevalidationControls, lang: Lang): string {
  return renderInPane(
    <>
      <RevalidationView controls={controls} />
      <BudgetField controls={controls} />
    </>,
    client,
    lang,
  );
}

/** The status line's text as shown. */
function line(html: string): string {
  return /data-testid="revalidation-text">([^<]*)</.exec(html)?.[1] ?? "";
}

test("Pause: the pane says paused and no request is sent; Resume: sending continues", async () => {
  const h = await setup();
  await h.ask(); // two requests go out at once (held), two wait
  expect(h.rec.requests).toHaveLength(2);
  expect(line(h.view())).toMatch(/^Updating \d companies/);
  h.controls.pause(); // the Pause button
  await h.drain(); // the two in flight finish; nothing more leaves
  expect(h.rec.requests).toHaveLength(2);
  const paused = h.view();
  expect(line(paused)).toBe("Paused: 2 companies still to update. Cells show their stored values.");
  expect(paused).toContain('data-testid="revalidation-resume"');
  expect(line(h.view("ja"))).toContain("一時停止中：2社が未更新です");
  h.controls.resume(); // the Resume button
  await h.drain();
  expect(h.rec.requests).toHaveLength(4);
  expect(h.view()).not.toContain('data-testid="revalidation-view"');
});

test("Stop: the queue is emptied, nothing more is sent, and the pane says updates stopped", async () => {
  const h = await setup();
  await h.ask();
  expect(h.queue.status().companies).toBe(4);
  h.controls.stop(); // the Stop updating button
  expect(h.queue.status()).toMatchObject({ requests: 0 });
  await h.drain();
  expect(h.rec.requests).toHaveLength(2); // only the two already in flight
  const stopped = h.view();
  expect(stopped).not.toContain('data-testid="revalidation-view"');
  expect(stopped).toContain("Background updates stopped for this session");
  expect(h.view("ja")).toContain("バックグラウンド更新を中止しました");
  await h.ask(); // the cells read their answers again: nothing is queued this session
  await h.drain();
  expect(h.rec.requests).toHaveLength(2);
});

test("a typed budget is applied and kept on this computer; the field shows the default until then", async () => {
  const h = await setup();
  expect(h.view()).toContain('value="800"');
  expect(h.queue.status().dailyBudget).toBe(800);
  h.controls.typeBudget("3"); // typed in "Background requests per day"
  expect(h.queue.status().dailyBudget).toBe(3);
  expect(loadBudget(h.storage)).toBe(3);
  expect(h.view()).toContain('value="3"');
  await h.ask();
  await h.drain();
  expect(h.rec.requests).toHaveLength(3); // the fourth waits for tomorrow
  expect(line(h.view())).toBe(
    "Today’s background budget (3 requests) is spent: 1 company waits until tomorrow.",
  );
  // A reopened pane reads the kept budget.
  expect(new RevalidationControls(() => h.queue, h.storage).budgetText).toBe("3");
  h.controls.typeBudget(""); // emptied: no limit
  expect(h.queue.status().dailyBudget).toBeUndefined();
  await h.drain();
  expect(h.rec.requests).toHaveLength(4);
  expect(new RevalidationControls(() => h.queue, h.storage).budgetText).toBe("");
});

test.each(["-5", "abc", "2.5"])(
  "an invalid budget (%s) is refused with a message; the budget in use and the kept one are unchanged",
  async (typed) => {
    const h = await setup();
    h.controls.typeBudget("5");
    h.controls.typeBudget(typed);
    expect(h.queue.status().dailyBudget).toBe(5);
    expect(loadBudget(h.storage)).toBe(5);
    const html = h.view();
    expect(html).toContain(`value="${typed}"`); // left in the field to correct
    expect(html).toContain("Not applied: type a whole number of requests (0 or more)");
    expect(h.view("ja")).toContain("反映していません：0以上の整数を入力してください");
    h.controls.typeBudget("6"); // corrected: the message goes
    expect(h.view()).not.toContain("Not applied");
    expect(h.queue.status().dailyBudget).toBe(6);
  },
);
