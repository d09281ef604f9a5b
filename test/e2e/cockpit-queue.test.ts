// The queue view against a slow sandbox: more formulas than the pacer's per-minute budget
// leave requests waiting; the pane shows how many and about how long, and Cancel empties the queue
// so those cells settle (#N/A) and nothing more is sent. Japanese at 320 px, English at 350 px.
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { startHarness, type Harness } from "./harness";
import { openCockpit, standIn, tid } from "./cockpit-helpers";

let h: Harness;
let slow: RunningSandbox;

beforeAll(async () => {
  h = await startHarness();
  // Slow answers keep requests in flight while the test looks (no timing is asserted).
  slow = await startSandbox({ port: 0, ratePerMinute: 0, corsOrigins: ["*"], latencyMs: 400 });
});

afterAll(async () => {
  await h?.close();
  await slow?.close();
});

/** More distinct requests than the 60 a minute the client paces itself to (src/client/pacer.ts). */
const FORMULAS = 75;

test.each([
  { lang: "ja" as const, width: 320 },
  { lang: "en" as const, width: 350 },
])("queue view in $lang at $width px: count, estimated time, cancel", async ({ lang, width }) => {
  slow.sandbox.reset();
  const page = await openCockpit(h, { lang, width, target: slow.url });
  try {
    const excel = standIn(page);
    await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
    expect(await page.locator(tid("queue-view")).count()).toBe(0);
    for (let i = 0; i < FORMULAS; i++) {
      await excel.enter("Sheet1", `A${i + 1}`, `=KAISHA.SECURITIES("queue${lang}${i}")`);
    }
    await page.waitForSelector(tid("queue-view"));
    const waiting = Number(await page.getAttribute(tid("queue-view"), "data-waiting"));
    expect(waiting).toBeGreaterThan(0);
    expect(waiting).toBeLessThanOrEqual(FORMULAS);
    // The estimate counts down: its attribute and its wording are read in one go, or a second may
    // tick between them.
    const [shownSeconds = "", text = ""] = await page.evaluate(
      ({ view, wording }: { view: string; wording: string }) => [
        document.querySelector(view)?.getAttribute("data-wait-seconds") ?? "",
        document.querySelector(wording)?.textContent ?? "",
      ],
      { view: tid("queue-view"), wording: tid("queue-text") },
    );
    const seconds = Number(shownSeconds);
    expect(seconds).toBeGreaterThan(0);
    expect(text).toMatch(/\d/);
    expect(text).toContain(String(seconds));
    const cancelName = (await page.textContent(tid("queue-cancel"))) ?? "";
    expect(cancelName).toMatch(lang === "ja" ? /取り消す/ : /Cancel \d+ waiting requests/);
    await h.screenshot(page, `cockpit-${lang}-${width}-12-queue`);

    await page.click(tid("queue-cancel"));
    await page.waitForSelector(tid("queue-view"), { state: "detached" });
    const cancelled = Number(await page.getAttribute(tid("queue-cancelled"), "data-count"));
    expect(cancelled).toBeGreaterThan(0);
    await excel.idle();
    const sent = slow.sandbox.requestLog.filter((e) => e.path.endsWith("/securities")).length;
    // Every formula settled: answered, or #N/A for the cancelled ones; none is left #BUSY!.
    const cells = (await excel.read("Sheet1", `A1:A${FORMULAS}`)).map((r) => r[0]);
    const cancelledCells = cells.filter(
      (c) => c?.value === "#N/A" && /取り消|cancel/i.test(c.message ?? ""),
    );
    expect(cancelledCells.length).toBe(cancelled);
    expect(cells.filter((c) => c?.value === "#BUSY!")).toEqual([]);
    // Nothing cancelled was sent afterwards.
    expect(sent).toBeLessThanOrEqual(FORMULAS - cancelled);
    await h.screenshot(page, `cockpit-${lang}-${width}-13-queue-cancelled`);
  } finally {
    await page.close();
  }
});
