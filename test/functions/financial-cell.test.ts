// FINANCIAL's two paths: cells answered at once from memory, and cells waiting for one shared
// /financials fetch (its cancellation counted over the cells, its stale mark given to each).
import { financial } from "../../functions/financial-cell";
import { financials } from "../../functions/financials";
import { getCellError, recordCellError, resetCellErrors } from "../../src/cell-errors";
import { cellError, invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);

afterAll(resetSession);
afterEach(() => {
  jest.useRealTimers();
  resetCellErrors();
});

const ITEMS = ["sales", "operating_profit", "net_income", "total_assets", "eps"];

describe("cells answered from memory", () => {
  test("after one request, every cell of the company is the FINANCIALS table's figure, with no request", async () => {
    const h = useSandbox();
    const table = (await financials(
      "7203",
      ITEMS.join(","),
      null,
      10,
      null,
      null,
      null,
      1,
      invocation(),
    )) as unknown[][];
    expect(h.sent()).toBe(1);
    for (const [row, item] of ITEMS.entries()) {
      for (let back = 0; back < 10; back += 1) {
        // The table is oldest-left; FINANCIAL's -back counts from the latest.
        const expected = table[row + 1]?.[10 - back];
        const value = await financial(7203, item, -back, null, null, null, invocation());
        expect(value).toBe(expected === null ? "" : expected);
      }
    }
    expect(h.sent()).toBe(1);
  });

  test("a cell answered from memory clears the error its address had recorded", async () => {
    useSandbox();
    await financial("7203", "sales", 0, null, null, null, invocation());
    recordCellError("Sheet1!B2", "#N/A", "earlier failure");
    expect(getCellError("Sheet1!B2")).toBeDefined();
    await financial("7203", "sales", 0, null, null, null, invocation({ address: "Sheet1!B2" }));
    expect(getCellError("Sheet1!B2")).toBeUndefined();
  });

  test("a value preview answered from memory leaves the cell's recorded error alone", async () => {
    useSandbox();
    await financial("7203", "sales", 0, null, null, null, invocation());
    recordCellError("Sheet1!B3", "#N/A", "earlier failure");
    const preview = invocation({ address: "Sheet1!B3", isInValuePreview: true });
    expect(typeof (await financial("7203", "sales", 0, null, null, null, preview))).toBe("number");
    expect(getCellError("Sheet1!B3")?.message).toBe("earlier failure");
  });

  test("a data error in memory still goes through the full path and is recorded for the cell", async () => {
    const h = useSandbox();
    await financial("7203", "sales", 0, null, null, null, invocation());
    const address = "Sheet1!C4";
    const err = await cellError(
      financial("7203", "sales", -40, null, null, null, invocation({ address })),
    );
    expect(err.code).toBe("#N/A");
    expect(getCellError(address)?.message).toBe(err.message);
    // The older windows it needed are asked once; the same cell again asks nothing more.
    const after = h.sent();
    await cellError(financial("7203", "sales", -40, null, null, null, invocation({ address })));
    expect(h.sent()).toBe(after);
  });

  test("an expired answer is not used at once: the cell asks again", async () => {
    const h = useSandbox();
    await financial("7203", "sales", 0, null, null, null, invocation());
    h.advance(8 * 24 * 3_600_000); // past the weekly revalidation slot (src/client/freshness.ts)
    await financial("7203", "sales", 0, null, null, null, invocation());
    expect(h.sent()).toBe(2);
  });
});

describe("cells waiting for one shared fetch", () => {
  test("90 cells of a company wait for one request; canceling some leaves it for the others", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const invocations = Array.from({ length: 90 }, () => invocation());
    const cells = invocations.map((inv, i) =>
      financial("6758", ITEMS[i % ITEMS.length], -(i % 10), null, null, null, inv),
    );
    const settled = Promise.allSettled(cells);
    // Excel cancels 89 of them (a recalculation elsewhere); one still wants the answer.
    for (const inv of invocations.slice(1)) inv.onCanceled?.();
    await jest.advanceTimersByTimeAsync(300);
    const outcomes = await settled;
    expect(outcomes[0]).toMatchObject({ status: "fulfilled" });
    expect(typeof (outcomes[0] as PromiseFulfilledResult<unknown>).value).toBe("number");
    // The canceled ones settle too (Excel ignores them), asking nothing more.
    for (const o of outcomes.slice(1))
      expect(o).toMatchObject({ status: "rejected", reason: { code: "#N/A" } });
    expect(h.sent()).toBe(1);
    expect(h.fetches()).toBe(1);
  });

  test("canceling the cell that started the fetch leaves it for the cells still waiting", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const invocations = Array.from({ length: 10 }, () => invocation());
    const cells = invocations.map((inv, i) =>
      financial("6758", ITEMS[i % ITEMS.length], -i, null, null, null, inv),
    );
    const settled = Promise.allSettled(cells);
    invocations[0]?.onCanceled?.();
    await jest.advanceTimersByTimeAsync(300);
    const outcomes = await settled;
    for (const o of outcomes.slice(1)) expect(o).toMatchObject({ status: "fulfilled" });
    expect(h.fetches()).toBe(1);
  });

  test("a failed fetch gives every waiting cell its error, asked once", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const addresses = ["Sheet1!A1", "Sheet1!A2", "Sheet1!A3"];
    const cells = addresses.map((address, i) =>
      cellError(
        financial("9984", ITEMS[i] as string, 0, null, null, null, invocation({ address })),
      ),
    );
    await jest.advanceTimersByTimeAsync(300);
    const errors = await Promise.all(cells);
    for (const [i, err] of errors.entries()) {
      expect(err.code).toBe("#N/A");
      expect(err.message).toMatch(/9984/);
      expect(getCellError(addresses[i] as string)?.message).toBe(err.message);
    }
    expect(h.fetches()).toBe(1);
  });

  test("a finished cell leaves no cancel handler on its invocation (it would keep the answer alive)", async () => {
    jest.useFakeTimers();
    useSandbox({ sandbox: { latencyMs: 300 } });
    const owner = invocation();
    const waiter = invocation();
    const failing = invocation();
    const cells = [
      financial("7203", "sales", 0, null, null, null, owner),
      financial("7203", "net_income", 0, null, null, null, waiter),
      cellError(financial("9984", "sales", 0, null, null, null, failing)),
    ];
    expect(typeof owner.onCanceled).toBe("function");
    expect(typeof waiter.onCanceled).toBe("function");
    await jest.advanceTimersByTimeAsync(300);
    await Promise.all(cells);
    expect(owner.onCanceled).toBeUndefined();
    expect(waiter.onCanceled).toBeUndefined();
    expect(failing.onCanceled).toBeUndefined();
  });

  test("when every waiting cell is canceled the shared request is abandoned unsent, and a new cell starts afresh", async () => {
    jest.useFakeTimers();
    const h = useSandbox({ sandbox: { latencyMs: 300 } });
    const a = invocation();
    const b = invocation();
    const cells = [
      financial("8306", "sales", 0, null, null, null, a),
      financial("8306", "net_income", 0, null, null, null, b),
    ];
    a.onCanceled?.();
    b.onCanceled?.();
    const errors = cells.map((c) => cellError(c));
    await jest.advanceTimersByTimeAsync(300);
    for (const err of await Promise.all(errors)) expect(err.code).toBe("#N/A");
    // Abandoned before it left (it was still on its way to the pacer): nothing was sent.
    expect(h.fetches()).toBe(0);
    const again = financial("8306", "sales", 0, null, null, null, invocation());
    await jest.advanceTimersByTimeAsync(300);
    expect(typeof (await again)).toBe("number");
    expect(h.fetches()).toBe(1);
  });

  test("every cell waiting while the API is down gets the last good answer, marked stale", async () => {
    const h = useSandbox({ dataTypes: true });
    const fresh = await financial("7203", "sales", 0, null, null, null, invocation());
    h.advance(8 * 24 * 3_600_000); // past the weekly revalidation slot (src/client/freshness.ts)
    h.setDown(true);
    const cells = await Promise.all(
      Array.from({ length: 5 }, () =>
        financial("7203", "sales", 0, null, null, null, invocation()),
      ),
    );
    for (const cell of cells) {
      expect(cell).toMatchObject({
        type: "Double",
        basicValue: (fresh as { basicValue: number }).basicValue,
      });
      expect(String((cell as { numberFormat: string }).numberFormat)).toMatch(/stale/);
    }
    // One failed attempt for the five cells, not one each.
    expect(h.fetches()).toBe(2);
  });
});
