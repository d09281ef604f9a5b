// The morning after results on the Excel stand-in's desktop model (Windows and Mac), with and
// without the workbook's startup behaviour (the scenario: ./morning-scenario.ts).
import type { Harness } from "./harness";
import { tid, type CellInfo } from "./cockpit-helpers";
import { E2E_BUILD_BASE_URL } from "./paths";
import {
  apiRequests,
  expectCurrent,
  FILING,
  hooks,
  KAISHA_CELLS,
  morning,
  prepareMorning,
  routeSandbox,
  ROWS,
  TYPED,
  type Prepared,
} from "./morning-scenario";

describe("desktop model: Windows and Mac call no custom function at open", () => {
  let h: Harness;
  let saved: Prepared["saved"];
  let fresh: CellInfo[][];

  beforeAll(async () => {
    ({ h, saved, fresh } = await prepareMorning("desktop"));
  }, 600_000);

  afterAll(async () => {
    await h?.close();
  });

  test("without the startup behaviour: nothing runs until the pane opens, which then offers Update and its cost before sending anything", async () => {
    await h.context.unroute(`${E2E_BUILD_BASE_URL}/**`);
    await routeSandbox(h.context, h.sandbox.url, { held: undefined });
    const sentBefore = apiRequests(h).length;
    const page = await h.openPage("/taskpane.html?lang=en", {
      excel: true,
      displayLanguage: "en-US",
      standIn: { host: "desktop", workbook: saved.withoutStartup },
    });
    const excel = hooks(page);
    await page.waitForTimeout(2_000);
    expect(await excel.calls()).toBe(0);
    // The saved values, as the file holds them.
    expect((await excel.read()).flat().map((c) => c.value)).toEqual(
      saved.evening.flat().map((c) => c.value),
    );
    await excel.openTaskPane();
    const offer = page.locator(`${tid("open-summary")}[data-held="true"]`);
    await offer.waitFor({ timeout: 60_000 });
    const due = Number(await offer.getAttribute("data-due-requests"));
    expect(due).toBeGreaterThanOrEqual(ROWS);
    const text = (await offer.textContent()) ?? "";
    expect(text).toContain("This workbook was not updated when it opened");
    expect(text).toMatch(
      new RegExp(`Update: \\d+ companies, at most ${due} requests, about \\d+ min\\.`),
    );
    expect(await page.isVisible(tid("open-update"))).toBe(true);
    // The cells whose data can have changed answered from what is stored and marked (every price:
    // a close since); the others keep their saved values (the due record); no request.
    expect(await excel.calls()).toBeGreaterThanOrEqual(ROWS);
    expect(await excel.calls()).toBeLessThan(KAISHA_CELLS);
    expect(
      apiRequests(h)
        .slice(sentBefore)
        .filter((r) => !r.startsWith("/v1/usage")),
    ).toEqual([]);
    await h.screenshot(page, "morning-open-desktop-03-offer");
    await page.close();
  }, 300_000);

  test("with the startup behaviour: marked before the update, equal to a fresh session after it, the pane's figures the requests counted, the analyst's typing kept", async () => {
    const run = await morning(h, "desktop", saved.withStartup);
    expectCurrent(saved.evening, run.before, run.after, fresh);
    // The pane's figures are the requests the sandbox saw, none of them twice.
    expect(run.summary.requests).toBe(run.morningRequests.length);
    expect(new Set(run.morningRequests).size).toBe(run.morningRequests.length);
    expect(run.summary.text).toContain(`Updated ${run.summary.companies} compan`);
    // The open's own recalculation: only the cells whose data can have changed (every price, the
    // filers' quarters), each once; the others kept their saved values, which a fresh session
    // agrees with (expectCurrent). Then the background's, nothing more.
    expect(run.callsAtOpen).toBeGreaterThanOrEqual(ROWS + 2 * FILING.filers.length);
    expect(run.callsAtOpen).toBeLessThan(KAISHA_CELLS);
    expect(run.calls - run.callsAtOpen).toBeLessThanOrEqual(run.summary.cells);
    expect(run.after[ROWS - 1]?.[2]).toMatchObject({ value: TYPED.text });
  }, 600_000);
});
