// A rarely used function's code is fetched on its first call and kept; a failed fetch is that
// cell's #VALUE! with a message the user can act on, and the next call fetches again.
import { lazyModule } from "../../functions/lazy-module";
import { getCellError, resetCellErrors } from "../../src/cell-errors";
import { cellError, invocation, settlesAtOnce } from "./harness";

afterEach(resetCellErrors);

const people = { person: async (id: string) => [[`person ${id}`]] };

test("the module is loaded once, by the first call, and later calls use it at once", async () => {
  const load = jest.fn(async () => people);
  const module = lazyModule(load);
  const first = module(invocation(), (m) => m.person("P1"));
  const second = module(invocation(), (m) => m.person("P2"));
  expect(await first).toEqual([["person P1"]]);
  expect(await second).toEqual([["person P2"]]);
  expect(load).toHaveBeenCalledTimes(1);
  // Loaded: no wait for the module any more.
  expect(await settlesAtOnce(module(invocation(), (m) => m.person("P3")))).toBe(true);
});

test("a chunk that cannot be fetched is the cell's #VALUE! with a message, and the next call tries again", async () => {
  let fail = true;
  const load = jest.fn(async () => {
    if (fail) throw new Error("ChunkLoadError: Loading chunk fn-people failed");
    return people;
  });
  const module = lazyModule(load);
  const address = "Sheet1!B2";
  const failed = await cellError(module(invocation({ address }), (m) => m.person("P1")));
  expect(failed.code).toBe("#VALUE!");
  expect(failed.message).toMatch(/reopen the workbook|開き直して/);
  expect(failed.message).not.toMatch(/ChunkLoadError/);
  expect(getCellError(address)?.code).toBe("#VALUE!");
  fail = false;
  expect(await module(invocation(), (m) => m.person("P1"))).toEqual([["person P1"]]);
  expect(load).toHaveBeenCalledTimes(2);
});
