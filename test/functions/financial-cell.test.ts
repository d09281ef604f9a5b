// FINANCIAL's two paths: cells answered at once from memory, and cells waiting for one shared
// /financials fetch (its cancellation counted over the cells, its stale mark given to each).
import { financial, financials } from "../../functions/financials";
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
    h.advance(13 * 3_600_000);
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
    // Excel cancels 89 of them (a recalculation elsewhere); one still wants the answer.
    for (const inv of invocations.slice(1)) inv.onCanceled?.();
    const first = cells[0] as Promise<unknown>;
    await jest.advanceTimersByTimeAsync(300);
    expect(typeof (await first)).toBe("number");
    expect(h.sent()).toBe(1);
    expect(h.fetches()).toBe(1);
    await Promise.allSettled(cells);
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
    h.advance(13 * 3_600_000);
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
