// The background revalidation follows the sheet on screen: its companies are asked first.

jest.mock("office-addin-manifest", () => ({ OfficeApp: { Excel: "excel", Outlook: "outlook" } }));

import { closeWorkbook, openWorkbook } from "./standin-workbook";
import { followActiveSheet, onSheet } from "../../taskpane/excel/active-sheet-priority";
import { Revalidator, type RevalidationTask } from "../../src/client";

afterEach(() => closeWorkbook());

test("sheet names in quoted addresses are matched exactly", () => {
  expect(onSheet("Sheet 1")("'Sheet 1'!B2")).toBe(true);
  expect(onSheet("It's")("'It''s'!A1")).toBe(true);
  expect(onSheet("Sheet1")("Sheet10!A1")).toBe(false);
  expect(onSheet("Sheet1")("A1")).toBe(false);
});

test("the active sheet's companies go first, and the sheet activated next takes over", async () => {
  const excel = await openWorkbook({
    sheets: [{ name: "Comps" }, { name: "Model" }],
    active: "Model",
  });
  const sent: string[] = [];
  const revalidator = new Revalidator({ now: Date.now, intervalMs: () => 1000, concurrency: 1 });
  let release: () => void = () => undefined;
  const task = (company: string): RevalidationTask => ({
    key: company,
    company,
    filing: false,
    rank: 0,
    refresh: () =>
      new Promise<boolean>((resolve) => {
        sent.push(company);
        release = () => resolve(false);
      }),
    touch: async () => undefined,
  });
  const next = async () => {
    release();
    await new Promise((r) => setImmediate(r));
  };
  const stop = await followActiveSheet(
    () => revalidator,
    () => () => undefined,
  );
  revalidator.schedule(task("A"), "Comps!B2");
  revalidator.schedule(task("B"), "Comps!B3");
  revalidator.schedule(task("C"), "Model!B2");
  revalidator.schedule(task("D"), "Comps!B4");
  await next();
  expect(sent).toEqual(["A", "C"]);
  await excel.activate("Comps");
  await next();
  await next();
  expect(sent).toEqual(["A", "C", "B", "D"]);
  stop();
});

test("a new session's queue is told the sheet on screen", async () => {
  await openWorkbook({ sheets: [{ name: "Comps" }, { name: "Model" }], active: "Model" });
  const queues: Revalidator[] = [];
  const fresh = () => new Revalidator({ now: Date.now, intervalMs: () => 1000 });
  queues.push(fresh());
  let changed: () => void = () => undefined;
  await followActiveSheet(
    () => queues[queues.length - 1] as Revalidator,
    (listener) => {
      changed = listener;
      return () => undefined;
    },
  );
  const spy = jest.spyOn(Revalidator.prototype, "prioritize");
  queues.push(fresh());
  changed();
  const test = spy.mock.calls[0]?.[0];
  expect(spy.mock.instances[0]).toBe(queues[1]);
  expect(test?.("Model!A1")).toBe(true);
  expect(test?.("Comps!A1")).toBe(false);
  spy.mockRestore();
});
