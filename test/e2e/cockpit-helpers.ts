// Helpers of the cockpit browser tests: the pane opened as `npm start` opens it (the build's
// sandbox URL, routed to the test's sandbox), the Excel stand-in's hooks, the section tabs.
import type { BrowserContext, Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import type { Harness } from "./harness";
import { E2E_BUILD_BASE_URL } from "./paths";
import { evaluateJson } from "./page-json";

/** What the stand-in reports about a cell (see excel-standin.js). */
export interface CellInfo {
  value: unknown;
  formula?: string;
  numberFormat: string;
  /** what the cell shows: a number in its number format (Range.text). */
  text: string;
  bold: boolean;
  error?: string;
  message?: string;
}

/** What the stand-in reports about a sheet (see excel-standin.js). */
interface SheetInfo {
  name: string;
  visibility: string;
  used: string | null;
  tables: { name: string; address: string }[];
  charts: { name: string; type: string; title: string; series: string[] }[];
}

/** The stand-in's test hooks on `window.__excelStandIn` (excel-standin.js). */
export interface StandIn {
  read(sheet: string, address: string): CellInfo[][];
  select(sheet: string, address: string): void;
  enter(sheet: string, address: string, text: string): void;
  /** `enter`, right after the pane's next sync (the analyst typing between two of its batches). */
  enterAfterSync(sheet: string, address: string, text: string): void;
  whenIdle(): Promise<void>;
  sheets(): SheetInfo[];
  calculations(): number;
}

export function tid(id: string): string {
  return `[data-testid="${id}"]`;
}

export type StandInWindow = { __excelStandIn: StandIn };

export function standIn(page: Page) {
  return {
    // JSON-carried (./page-json.ts): a used range is megabytes of Playwright's value nodes.
    read: (sheet: string, address: string) =>
      evaluateJson(
        page,
        ([s, a]) => (window as unknown as StandInWindow).__excelStandIn.read(s, a),
        [sheet, address] as const,
      ),
    select: (sheet: string, address: string) =>
      page.evaluate(([s, a]) => (window as unknown as StandInWindow).__excelStandIn.select(s, a), [
        sheet,
        address,
      ] as const),
    enter: (sheet: string, address: string, text: string) =>
      page.evaluate(
        ([s, a, t]) => (window as unknown as StandInWindow).__excelStandIn.enter(s, a, t),
        [sheet, address, text] as const,
      ),
    enterAfterSync: (sheet: string, address: string, text: string) =>
      page.evaluate(
        ([s, a, t]) => (window as unknown as StandInWindow).__excelStandIn.enterAfterSync(s, a, t),
        [sheet, address, text] as const,
      ),
    idle: () => page.evaluate(() => (window as unknown as StandInWindow).__excelStandIn.whenIdle()),
    sheets: () =>
      evaluateJson(page, () => (window as unknown as StandInWindow).__excelStandIn.sheets(), null),
    calculations: () =>
      page.evaluate(() => (window as unknown as StandInWindow).__excelStandIn.calculations()),
  };
}

/**
 * Sends the build's sandbox URL (what `npm start` bakes in) to `target` (a test sandbox's base URL)
 * for every page of `context`, so the pane opens exactly as after `npm start`, demo key included.
 * Chromium sends each request to `target` itself (route.continue with the new URL, which the page
 * does not see; Playwright answers the CORS preflights of routed requests): no answer passes
 * through the test process, as every body did with route.fetch and fulfill. `hold` runs before a
 * request goes (a slow server for the queue test, morning-open's gate; no timing is asserted).
 */
export async function routeBuildSandbox(
  context: BrowserContext,
  target: string,
  hold?: () => Promise<void>,
): Promise<void> {
  await context.unroute(`${E2E_BUILD_BASE_URL}/**`).catch(() => undefined);
  await context.route(`${E2E_BUILD_BASE_URL}/**`, async (route) => {
    if (hold) await hold();
    const url = route.request().url().replace(E2E_BUILD_BASE_URL, target);
    await route.continue({ url }).catch(() => undefined);
  });
}

/** Opens the pane with the stand-in, no ?baseUrl (the build's default), at the given size. */
export async function openCockpit(
  h: Harness,
  options: { lang: "ja" | "en"; width: number; target?: string; delayMs?: number },
): Promise<Page> {
  const delayMs = options.delayMs ?? 0;
  await routeBuildSandbox(
    h.context,
    options.target ?? h.sandbox.url,
    delayMs > 0 ? () => new Promise((r) => setTimeout(r, delayMs)) : undefined,
  );
  const opened = await h.openPage(`/taskpane.html?lang=${options.lang}`, {
    excel: true,
    displayLanguage: options.lang === "ja" ? "ja-JP" : "en-US",
  });
  await opened.setViewportSize({ width: options.width, height: 900 });
  await opened.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
  return opened;
}

/**
 * The task pane with the stand-in, 420 px wide, in `lang`, connected to the harness's sandbox with
 * the demo key (verified).
 */
export async function openConnectedPane(
  h: Harness,
  lang: "ja" | "en",
): Promise<{ page: Page; excel: ReturnType<typeof standIn> }> {
  const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang }).toString();
  const displayLanguage = lang === "ja" ? "ja-JP" : "en-US";
  const page = await h.openPage(`/taskpane.html?${query}`, { excel: true, displayLanguage });
  await page.setViewportSize({ width: 420, height: 900 });
  await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
  await page.fill(tid("key-input"), DEMO_API_KEY);
  await page.click(tid("key-verify"));
  await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
  return { page, excel: standIn(page) };
}

/**
 * Opens a section with one click on its tab: every tab is in the row at any width, so a
 * tab that is not visible fails the test rather than being looked for in a menu.
 */
export async function nav(page: Page, section: string): Promise<void> {
  await page.click(tid(`nav-${section}`));
  await page.waitForSelector(`${tid(`section-${section}`)}:not([hidden])`);
}

/**
 * Whether every tab is visible, inside the pane's width and not cut (its label not clipped), so it
 * takes one click: the tabs' ids that fail.
 */
export function unreachableTabs(page: Page, sections: readonly string[]): Promise<string[]> {
  return page.evaluate((ids) => {
    const width = document.documentElement.clientWidth;
    return ids.filter((id) => {
      const el = document.querySelector<HTMLElement>(`[data-testid="nav-${id}"]`);
      if (!el) return true;
      const r = el.getBoundingClientRect();
      const label = el.querySelector<HTMLElement>(".kaisha-tab-short, .kaisha-tab-full");
      const shown = Array.from(
        el.querySelectorAll<HTMLElement>(".kaisha-tab-short, .kaisha-tab-full"),
      ).find((s) => getComputedStyle(s).display !== "none");
      const clipped = shown ? shown.scrollWidth > shown.clientWidth + 1 : label === null;
      return r.width < 24 || r.height < 24 || r.left < 0 || r.right > width + 0.5 || clipped;
    });
  }, sections);
}

/** Waits for a status message bar and returns its intent and text. */
export async function message(page: Page, id: string): Promise<{ intent: string; text: string }> {
  const bar = page.locator(tid(id));
  await bar.waitFor();
  return {
    intent: (await bar.getAttribute("data-intent")) ?? "",
    text: (await bar.textContent()) ?? "",
  };
}

/** Sideways scroll of the page (0 when nothing overflows the pane's width). */
export function overflowX(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** The distinct vertical positions of the visible tabs: 1 = one row. */
export function tabRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const tops = new Set<number>();
    for (const el of Array.from(
      document.querySelectorAll<HTMLElement>('[role="tablist"] [role="tab"]'),
    )) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top));
    }
    return tops.size;
  });
}

/**
 * Starts recording, in the page, what a section shows after `buttonId` is pressed: each click that
 * reaches the button, and each change of the messages and prompts `watched` (test ids) and of the
 * button's disabled state, with the page's time. Returns what reads the record back: a failing
 * test can then say which way a flaky step went (the click lost, a prompt shown then cleared, a
 * message replaced), which its final state alone does not tell.
 */
export async function traceSection(
  page: Page,
  buttonId: string,
  watched: readonly string[],
): Promise<() => Promise<string>> {
  const key = `__trace_${buttonId}`;
  await page.evaluate(
    ({ key, buttonId, watched }) => {
      const lines: string[] = [];
      const at = (): number => Math.round(performance.now());
      const byId = (id: string): Element | null => document.querySelector(`[data-testid="${id}"]`);
      let last = "";
      const look = (): void => {
        const button = byId(buttonId) as HTMLButtonElement | null;
        const parts = watched.map((id) => `${id}: ${byId(id)?.textContent ?? "-"}`);
        const state = `${parts.join("; ")}; disabled: ${button === null ? "-" : button.disabled}`;
        if (state !== last) lines.push(`${at()} ${state}`);
        last = state;
      };
      document.addEventListener(
        "click",
        (e) => {
          if ((e.target as Element | null)?.closest(`[data-testid="${buttonId}"]`))
            lines.push(`${at()} click reached ${buttonId}`);
        },
        true,
      );
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      look();
      (window as unknown as Record<string, string[]>)[key] = lines;
    },
    { key, buttonId, watched },
  );
  return () =>
    page
      .evaluate((k) => ((window as unknown as Record<string, string[]>)[k] ?? []).join("\n"), key)
      .catch((err: unknown) => `(no trace: ${String(err)})`);
}
