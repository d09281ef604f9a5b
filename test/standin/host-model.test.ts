// The stand-in's host calculation model in Node (standin/STANDIN.md "Host calculation model"): what a
// saved workbook shows and calls when it is opened on the desktop and on the web, the startup
// behaviour and settings it keeps, and which calculations call custom functions again.
import { installExcelStandIn, type StandInHooks } from "../../standin/install";
import type { PageConfig as StandInConfig } from "../../standin/install";
import type { WorkbookSnapshot } from "../../standin/workbook-snapshot";

/* eslint-disable @typescript-eslint/no-explicit-any -- the stand-in's Excel and Office objects, untyped here */
type G = Record<string, unknown> & { Excel?: { run<T>(batch: (ctx: any) => T): Promise<T> } };
const g = globalThis as unknown as G;

afterEach(() => {
  for (const key of ["Excel", "__excelStandIn", "CustomFunctions", "Office"]) delete g[key];
});

/** Installs a workbook with DOUBLE (x * 2, its calls counted by the stand-in) and volatile TICK. */
async function install(config: StandInConfig = {}): Promise<StandInHooks> {
  const excel = installExcelStandIn(g, config);
  g["Office"] = {};
  let ticks = 0;
  await excel.register(
    { id: "DOUBLE", name: "DOUBLE", parameters: [{ name: "x", type: "number" }] },
    (x: unknown) => Number(x) * 2,
  );
  await excel.register(
    {
      id: "TICK",
      name: "TICK",
      parameters: [],
      options: { volatile: true },
    } as Parameters<StandInHooks["register"]>[0],
    () => ++ticks,
  );
  return excel;
}

const value = (excel: StandInHooks, address: string): unknown =>
  excel.read("Sheet1", address)[0]?.[0]?.value;

/** A workbook with three DOUBLE cells over typed numbers, a formatted one, calculated and saved. */
async function savedWorkbook(
  setUp?: (excel: StandInHooks) => Promise<void>,
): Promise<WorkbookSnapshot> {
  const excel = await install();
  excel.enter("Sheet1", "A1", "10");
  excel.enter("Sheet1", "A2", "20");
  excel.enter("Sheet1", "A3", "30");
  excel.enter("Sheet1", "B1", "=KAISHA.DOUBLE(A1)");
  excel.enter("Sheet1", "B2", "=KAISHA.DOUBLE(A2)");
  excel.enter("Sheet1", "B3", "=KAISHA.DOUBLE(A3)+1");
  await g.Excel!.run(async (ctx) => {
    ctx.workbook.worksheets.getItem("Sheet1").getRange("B1").numberFormat = [["#,##0.0"]];
    await ctx.sync();
  });
  await excel.whenIdle();
  await setUp?.(excel);
  const snapshot = excel.save();
  // Saved: plain JSON (what a file keeps), nothing live.
  return JSON.parse(JSON.stringify(snapshot)) as WorkbookSnapshot;
}

test("desktop open: no custom function is called, every cell shows its saved value and format, the runtime is not started", async () => {
  const saved = await savedWorkbook();
  // The workbook changed after it was saved would show here if the open recalculated.
  const excel = await install({ host: "desktop", workbook: saved });
  await new Promise((resolve) => setTimeout(resolve, 10));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(0);
  expect(excel.runtimeStarted()).toBe(false);
  expect([value(excel, "B1"), value(excel, "B2"), value(excel, "B3")]).toEqual([20, 40, 61]);
  expect(excel.read("Sheet1", "B1")[0]?.[0]?.text).toBe("20.0");
  expect(excel.read("Sheet1", "B1")[0]?.[0]?.formula).toBe("=KAISHA.DOUBLE(A1)");
  // F9 calls none (office-js#1462).
  excel.pressF9();
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(0);
  // The analyst opens the pane: the runtime starts; still nothing is called by the host.
  excel.openTaskPane();
  expect(excel.runtimeStarted()).toBe(true);
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(0);
});

test("web open: every custom function cell is called once the functions are registered", async () => {
  const saved = await savedWorkbook();
  const excel = installExcelStandIn(g, { host: "web", workbook: saved });
  expect(excel.runtimeStarted()).toBe(true);
  // Before the functions are registered the cells show what was saved.
  expect(value(excel, "B2")).toBe(40);
  await excel.register(
    { id: "DOUBLE", name: "DOUBLE", parameters: [{ name: "x", type: "number" }] },
    (x: unknown) => Number(x) * 3,
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(3);
  expect([value(excel, "B1"), value(excel, "B2"), value(excel, "B3")]).toEqual([30, 60, 91]);
});

test("only volatile functions are called at a desktop open", async () => {
  const saved = await savedWorkbook(async (excel) => {
    excel.enter("Sheet1", "C1", "=KAISHA.TICK()");
    await excel.whenIdle();
  });
  const excel = await install({ host: "desktop", workbook: saved });
  await new Promise((resolve) => setTimeout(resolve, 10));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(1);
  // and F9 calls the volatile one again, not the others
  excel.pressF9();
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(2);
});

test("the startup behaviour Load starts the runtime at a desktop open; saved settings travel, unsaved ones do not", async () => {
  const saved = await savedWorkbook(async () => {
    const office = g["Office"] as any;
    await office.addin.setStartupBehavior(office.StartupBehavior.load);
    office.context.document.settings.set("kept", "on");
    await new Promise((resolve) => office.context.document.settings.saveAsync(resolve));
    office.context.document.settings.set("lost", "yes");
  });
  expect(saved.startupBehavior).toBe("Load");
  const excel = await install({ host: "desktop", workbook: saved });
  expect(excel.runtimeStarted()).toBe(true);
  const office = g["Office"] as any;
  expect(await office.addin.getStartupBehavior()).toBe("Load");
  expect(office.context.document.settings.get("kept")).toBe("on");
  expect(office.context.document.settings.get("lost")).toBeNull();
  expect(office.context.platform).toBe("PC");
  await new Promise((resolve) => setTimeout(resolve, 10));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(0);
});

test("inserting rows calls every custom function again and references follow; deleting a referenced row is #REF!", async () => {
  const excel = await install({ host: "desktop", workbook: await savedWorkbook() });
  excel.insertRows("Sheet1", 2, 2);
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(3);
  expect(excel.read("Sheet1", "B4")[0]?.[0]?.formula).toBe("=KAISHA.DOUBLE(A4)");
  expect([value(excel, "B1"), value(excel, "B4"), value(excel, "B5")]).toEqual([20, 40, 61]);
  excel.deleteRows("Sheet1", 4, 1);
  await excel.whenIdle();
  expect(excel.read("Sheet1", "B4")[0]?.[0]?.formula).toBe("=KAISHA.DOUBLE(A4)+1");
  expect(excel.customFunctionCalls()).toBe(5);
  excel.deleteColumns("Sheet1", "A", 1);
  await excel.whenIdle();
  expect(excel.read("Sheet1", "A1")[0]?.[0]?.formula).toBe("=KAISHA.DOUBLE(#REF!)");
});

test("full calculation, Worksheet.calculate(markAllDirty) and Range.calculate call custom functions; calculate(Recalculate) does not", async () => {
  const excel = await install({ host: "desktop", workbook: await savedWorkbook() });
  const run = (batch: (ctx: any) => void) =>
    g.Excel!.run(async (ctx) => {
      batch(ctx);
      await ctx.sync();
    });
  await run((ctx) => ctx.workbook.application.calculate("Recalculate"));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(0);
  await run((ctx) => ctx.workbook.worksheets.getItem("Sheet1").calculate(false));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(0);
  await run((ctx) => ctx.workbook.worksheets.getItem("Sheet1").getRange("B2:B3").calculate());
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(2);
  await run((ctx) => ctx.workbook.worksheets.getItem("Sheet1").calculate(true));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(5);
  excel.fullCalculation();
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(8);
  await run((ctx) => ctx.workbook.application.calculate("FullRebuild"));
  await excel.whenIdle();
  expect(excel.customFunctionCalls()).toBe(11);
});
