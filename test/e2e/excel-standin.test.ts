// The Excel stand-in's behaviours in the browser (standin/STANDIN.md): data-type arguments on
// and off, #SPILL! over typed cells and in tables, value preview spending nothing, and the runtime page
// registering the functions before (and without) the pane's UI.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { startHarness, type Harness, type StandInConfig } from "./harness";
import { E2E_DIST } from "./paths";

let h: Harness;

interface CellInfo {
  value: unknown;
  formula?: string;
  error?: string;
  message?: string;
}
interface StandIn {
  enter(sheet: string, address: string, text: string): void;
  read(sheet: string, address: string): CellInfo[][];
  whenIdle(): Promise<void>;
  functions(): string[];
  preview(sheet: string, address: string, formula: string): Promise<CellInfo[][]>;
  register(meta: object, fn: (...args: unknown[]) => unknown): Promise<void>;
  /** What the pane asked of the workbook besides cells ("calculate Full", …). */
  log: string[];
}
type W = { __excelStandIn: StandIn };

/** A page with the stand-in, connected to the sandbox with the demo key, and a probe function. */
async function open(standIn: StandInConfig = {}): Promise<Page> {
  const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
  const page = await h.openPage(`/taskpane.html?${query}`, { excel: true, standIn });
  await page.waitForSelector('[data-testid="app-root"][data-ready="true"]');
  await page.fill('[data-testid="key-input"]', DEMO_API_KEY);
  await page.click('[data-testid="key-verify"]');
  await page.waitForSelector('[data-testid="connection-status"][data-state="ok"]');
  // The saved key recalculates the workbook once, 300 ms later (recalc-on-change.ts): wait for it,
  // or it can land after a test's first formula and calculate that cell a second time.
  await page.waitForFunction(() =>
    (window as unknown as W).__excelStandIn.log.some((line) => line.startsWith("calculate")),
  );
  // PROBE(x): what the function received, as JSON (the parameter is `any`, as KAISHA's are).
  await page.evaluate(() =>
    (window as unknown as W).__excelStandIn.register(
      { id: "PROBE", name: "PROBE", parameters: [{ name: "x", type: "any" }] },
      (x: unknown) => JSON.stringify(x),
    ),
  );
  return page;
}

const enter = (page: Page, address: string, text: string) =>
  page.evaluate(([a, t]) => (window as unknown as W).__excelStandIn.enter("Sheet1", a, t), [
    address,
    text,
  ] as const);
const read = (page: Page, address: string) =>
  page.evaluate((a) => (window as unknown as W).__excelStandIn.read("Sheet1", a), address);
const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as W).__excelStandIn.whenIdle());

beforeAll(async () => {
  // The sandbox's clock: no PRICE answer falls due mid-test when a run crosses the 15:30 JST close.
  h = await startHarness({ pageClock: "sandbox" });
});

afterAll(async () => {
  await h?.close();
});

describe("Excel stand-in", () => {
  test("data types on (1.4 host): a date spilled by PRICES reaches the next function as a formatted number", async () => {
    const page = await open();
    await enter(page, "A1", '=KAISHA.PRICES(7203,"2024-01-04","2024-01-10","date,close","asc")');
    await idle(page);
    await enter(page, "D1", "=KAISHA.PROBE(A2)");
    await idle(page);
    const got = JSON.parse(String((await read(page, "D1"))[0]?.[0]?.value)) as {
      type: string;
      numberFormat: string;
    };
    expect(got).toMatchObject({ type: "Double", numberFormat: expect.stringMatching(/yyyy/) });
    // Under the default ("all", the strict reading) a typed value arrives as a String object too;
    // an empty cell is null.
    await enter(page, "F1", "sales");
    await enter(page, "D2", "=KAISHA.PROBE(F1)");
    await enter(page, "D3", "=KAISHA.PROBE(G9)");
    await idle(page);
    expect((await read(page, "D2:D3")).map((r) => r[0]?.value)).toEqual([
      '{"type":"String","basicValue":"sales"}',
      "null",
    ]);
    // KAISHA results chained into KAISHA arguments: the spilled date (a formatted number) is
    // PRICE's date, the typed item (a String object) is FINANCIAL's item, COMPANY's card is the
    // company: each gives the same value as the plain arguments.
    await enter(page, "H1", '=KAISHA.PRICE(7203,"close",A2)');
    await enter(page, "H2", "=KAISHA.COMPANY(7203)");
    await enter(page, "H3", "=KAISHA.FINANCIAL(H2,F1,202403)");
    await enter(page, "H4", '=KAISHA.FINANCIAL(7203,"sales",202403)');
    await idle(page);
    const [price, card, chained, plain] = (await read(page, "H1:H4")).map((r) => r[0]);
    const closeOnA2 = (await read(page, "B2"))[0]?.[0];
    expect(price?.error).toBeUndefined();
    expect(typeof price?.value).toBe("number");
    expect(price?.value).toBe(closeOnA2?.value);
    expect(card?.error).toBeUndefined();
    expect(chained?.error).toBeUndefined();
    expect(typeof chained?.value).toBe("number");
    expect(chained?.value).toBe(plain?.value);
    await page.close();
  });

  test("data types off (CustomFunctionsRuntime 1.1): plain serials; 'formatted' passes typed text plain", async () => {
    const off = await open({
      requirementSets: { ExcelApi: "1.16", CustomFunctionsRuntime: "1.1", SharedRuntime: "1.1" },
    });
    await enter(off, "A1", '=KAISHA.PRICES(7203,"2024-01-04","2024-01-10","date,close","asc")');
    await idle(off);
    await enter(off, "D1", "=KAISHA.PROBE(A2)");
    await idle(off);
    expect(typeof JSON.parse(String((await read(off, "D1"))[0]?.[0]?.value))).toBe("number");
    await off.close();

    const formatted = await open({ dataTypeArguments: "formatted", emptyArgument: "zero" });
    await enter(formatted, "F1", "sales");
    await enter(formatted, "D2", "=KAISHA.PROBE(F1)");
    await enter(formatted, "D3", "=KAISHA.PROBE(G9)");
    await idle(formatted);
    expect((await read(formatted, "D2:D3")).map((r) => r[0]?.value)).toEqual(['"sales"', "0"]);
    await formatted.close();
  });

  test("#SPILL! over a typed cell and inside an Excel table; a multi-cell range to a scalar is #VALUE!", async () => {
    const page = await open();
    await enter(page, "B11", "in the way");
    await enter(page, "A10", '=KAISHA.PRICES(7203,"2024-01-04","2024-01-10","date,close","asc")');
    await idle(page);
    expect((await read(page, "A10"))[0]?.[0]).toMatchObject({ value: "#SPILL!", error: "Spill" });
    await enter(page, "B11", "");
    await idle(page);
    expect((await read(page, "A10"))[0]?.[0]?.error).toBeUndefined();
    // A table over the anchor: spilled arrays are not supported in tables.
    await page.evaluate(() =>
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem("Sheet1").tables.add("A20:C22", true);
        await context.sync();
      }),
    );
    await enter(page, "A21", '=KAISHA.PRICES(7203,"2024-01-04","2024-01-10","date,close","asc")');
    await idle(page);
    expect((await read(page, "A21"))[0]?.[0]).toMatchObject({ value: "#SPILL!" });
    // A second spill over the first one's range is blocked; the first keeps its cells.
    await enter(page, "B8", '=KAISHA.PRICES(7203,"2024-01-04","2024-01-10","date,close","asc")');
    await idle(page);
    expect((await read(page, "B8"))[0]?.[0]).toMatchObject({ value: "#SPILL!" });
    expect((await read(page, "A10"))[0]?.[0]?.error).toBeUndefined();
    await enter(page, "B8", "");
    await idle(page);
    await enter(page, "H1", "=KAISHA.PROBE(A10:A12)");
    await idle(page);
    expect((await read(page, "H1"))[0]?.[0]).toMatchObject({ value: "#VALUE!", error: "Value" });
    await page.close();
  });

  test("the page's clock starts at the sandbox's data clock and runs", async () => {
    const page = await open();
    const start = Date.parse(h.sandbox.sandbox.now());
    const first = await page.evaluate(() => Date.now());
    // The pane's timers run and move the clock (no duration is asserted).
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    const second = await page.evaluate(() => Date.now());
    const jstDay = (t: number) => new Date(t + 9 * 3_600_000).toISOString().slice(0, 10);
    expect(first).toBeGreaterThanOrEqual(start);
    expect(jstDay(first)).toBe(jstDay(start)); // the data's day, whatever the machine's date
    expect(second).toBeGreaterThan(first);
    await page.close();
  });

  test("cancellation: re-entering a formula or recalculating cancels the call still running", async () => {
    const page = await open();
    await page.evaluate(() => {
      const w = window as unknown as W & { __canceled: number; __calls: number };
      w.__canceled = 0;
      w.__calls = 0;
      return w.__excelStandIn.register(
        {
          id: "SLOW",
          name: "SLOW",
          parameters: [{ name: "x", type: "any" }],
          options: { cancelable: true },
        },
        (...args: unknown[]) => {
          const invocation = args[1] as { onCanceled?: () => void };
          invocation.onCanceled = () => void w.__canceled++;
          w.__calls++;
          return new Promise(() => undefined); // never settles by itself
        },
      );
    });
    const canceled = () =>
      page.evaluate(() => (window as unknown as { __canceled: number }).__canceled);
    // Each call is running (the function was called) before the next event: a calculation
    // cancelled before its call starts never calls the function, so there is nothing to cancel.
    const calls = (n: number) =>
      page.waitForFunction((k) => (window as unknown as { __calls: number }).__calls === k, n);
    await enter(page, "K1", "=KAISHA.SLOW(1)");
    await calls(1);
    await enter(page, "K1", "=KAISHA.SLOW(2)");
    await page.waitForFunction(
      () => (window as unknown as { __canceled: number }).__canceled === 1,
    );
    await calls(2);
    await page.evaluate(() =>
      Excel.run(async (context) => {
        context.workbook.application.calculate("Full");
        await context.sync();
      }),
    );
    await page.waitForFunction(
      () => (window as unknown as { __canceled: number }).__canceled === 2,
    );
    expect(await canceled()).toBe(2);
    expect((await read(page, "K1"))[0]?.[0]).toMatchObject({ value: "#BUSY!" });
    await page.close();
  });

  test("cancellation before the call: a superseded calculation never calls the function, the cell shows the newest, whenIdle settles", async () => {
    const page = await open();
    await page.evaluate(() => {
      const w = window as unknown as W & { __seen: string[] };
      w.__seen = [];
      return w.__excelStandIn.register(
        {
          id: "TWICE",
          name: "TWICE",
          parameters: [{ name: "x", type: "number" }],
          options: { cancelable: true },
        },
        (...args: unknown[]) => {
          // A referenced cell arrives as a data type (the "all" default, STANDIN.md).
          const arg = args[0] as number | { basicValue: number };
          const x = typeof arg === "object" ? arg.basicValue : arg;
          const invocation = args[1] as { onCanceled?: () => void };
          invocation.onCanceled = () => void w.__seen.push(`canceled ${x}`);
          w.__seen.push(`called ${x}`);
          return Promise.resolve(x * 2);
        },
      );
    });
    const seen = () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    // Entered three times, then cleared, in one turn: no calculation reaches its call before the
    // next event supersedes it, so only the last entry of L1 calls the function.
    await page.evaluate(() => {
      const s = (window as unknown as W).__excelStandIn;
      s.enter("Sheet1", "L1", "=KAISHA.TWICE(1)");
      s.enter("Sheet1", "L1", "=KAISHA.TWICE(2)");
      s.enter("Sheet1", "L1", "=KAISHA.TWICE(3)");
      s.enter("Sheet1", "L2", "=KAISHA.TWICE(4)");
      s.enter("Sheet1", "L2", "");
    });
    await idle(page);
    expect(await seen()).toEqual(["called 3"]);
    expect((await read(page, "L1:L2")).map((row) => row[0]?.value)).toEqual([6, ""]);
    // A newer calculation of a dependent cell: M2 reads M1, typed twice in one turn.
    await enter(page, "M1", "5");
    await enter(page, "M2", "=KAISHA.TWICE(M1)");
    await idle(page);
    await page.evaluate(() => {
      const s = (window as unknown as W).__excelStandIn;
      s.enter("Sheet1", "M1", "7");
      s.enter("Sheet1", "M1", "8");
    });
    await idle(page);
    expect(await seen()).toEqual(["called 3", "called 5", "called 8"]);
    expect((await read(page, "M2"))[0]?.[0]).toMatchObject({ value: 16 });
    await page.close();
  });

  test("value preview: a formula being typed calls the function with isInValuePreview and sends nothing", async () => {
    const page = await open();
    const before = h.sandbox.sandbox.requestLog.length;
    const result = await page.evaluate(() =>
      (window as unknown as W).__excelStandIn.preview(
        "Sheet1",
        "J1",
        '=KAISHA.FINANCIAL(9432,"sales",-3)',
      ),
    );
    expect(h.sandbox.sandbox.requestLog.length).toBe(before);
    expect(result[0]?.[0]?.error).toBeDefined(); // nothing cached to preview from
    expect((await read(page, "J1"))[0]?.[0]?.formula).toBeUndefined(); // nothing written
    await page.close();
  });

  test("the runtime page registers the functions while hidden, and loads the pane's UI only when shown", async () => {
    const query = new URLSearchParams({ baseUrl: h.sandbox.url, lang: "en" }).toString();
    const scripts: string[] = [];
    const page = await h.context.newPage();
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    // The shared runtime's hidden page: document.visibilityState is "hidden".
    await page.addInitScript(() => {
      let hidden = true;
      Object.defineProperty(document, "visibilityState", {
        get: () => (hidden ? "hidden" : "visible"),
      });
      (window as unknown as { __show: () => void }).__show = () => {
        hidden = false;
        document.dispatchEvent(new Event("visibilitychange"));
      };
    });
    const standIn = fs.readFileSync(path.join(E2E_DIST, "excel-standin.js"), "utf8");
    await page.addInitScript({ content: `window.__excelStandInConfig = {};\n${standIn}` });
    await page.goto(`${h.server.url}/taskpane.html?${query}`);
    await page.waitForFunction(
      () => (window as unknown as W).__excelStandIn.functions().length > 20,
    );
    expect(scripts.some((s) => /\/pane[.-]/.test(s))).toBe(false);
    expect(await page.locator('[data-testid="app-root"]').count()).toBe(0);
    await page.evaluate(() => (window as unknown as { __show: () => void }).__show());
    await page.waitForSelector('[data-testid="app-root"][data-ready="true"]');
    expect(scripts.some((s) => /\/pane\.[0-9a-f]+\.js$/.test(s))).toBe(true);
    expect(scripts.some((s) => /\/pane-vendor\.[0-9a-f]+\.js$/.test(s))).toBe(true);
    await page.close();
  });
});
