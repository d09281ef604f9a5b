// The stand-ins' engine and cancellation (STANDIN.md "Cancellation"): a calculation cancelled before
// a function's call starts never calls it and has no result; a call already running gets onCanceled.
import { createStandIn } from "../../standin/custom-functions-standin";
import {
  evaluate,
  type EvaluationContext,
  type FunctionMetadata,
} from "../../standin/evaluate";
import { parseFormula } from "../../standin/formula-parser";
import { evaluateStandInFormula } from "../../standin/standin-engine";

const one = (id: string, cancelable: boolean): [string, FunctionMetadata] => [
  id,
  { id, name: id, parameters: [{ name: "x", type: "any" }], options: { cancelable } },
];
const metadata = new Map([
  one("SLOW", true),
  one("PLAIN", false),
  one("OUTER", true),
  ["TICK", { id: "TICK", name: "TICK", parameters: [], options: { stream: true } }],
]);

/** Every call and cancellation, by function; SLOW's calls stay running until `finish` is called. */
function functions() {
  const calls: string[] = [];
  const canceled: string[] = [];
  const running: ((value: unknown) => void)[] = [];
  const cf = createStandIn();
  const cancelable =
    (id: string) =>
    (x: unknown, invocation: { onCanceled?: () => void }): Promise<unknown> => {
      calls.push(`${id}(${String(x)})`);
      invocation.onCanceled = () => void canceled.push(`${id}(${String(x)})`);
      return id === "SLOW"
        ? new Promise((resolve) => running.push(resolve))
        : Promise.resolve(`${id}:${String(x)}`);
    };
  cf.associate("SLOW", cancelable("SLOW"));
  cf.associate("OUTER", cancelable("OUTER"));
  cf.associate("TICK", (invocation: { setResult(v: unknown): void; onCanceled?: () => void }) => {
    calls.push("TICK()");
    invocation.onCanceled = () => void canceled.push("TICK()");
    invocation.setResult(1);
  });
  cf.associate("PLAIN", (x: unknown) => {
    calls.push(`PLAIN(${String(x)})`);
    return x;
  });
  const finish = (value: unknown) => running.splice(0).forEach((resolve) => resolve(value));
  return { calls, canceled, registry: cf.registry, finish };
}

function context(registry: EvaluationContext["implementations"], signal: AbortSignal) {
  const ctx: EvaluationContext = {
    namespace: "KAISHA",
    metadata,
    implementations: registry,
    cellAt: () => undefined,
    address: { row: 0, col: 0 },
    signal,
  };
  return ctx;
}

/** Lets queued promise reactions run (no timers involved). */
const drain = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("stand-in engine: cancellation before the call", () => {
  test.each([
    ["a cancelable function", "KAISHA.SLOW(1)"],
    ["a function without an invocation", "KAISHA.PLAIN(1)"],
    [
      "a call inside IFERROR (the cancellation is not an error it can catch)",
      "IFERROR(KAISHA.PLAIN(1),0)",
    ],
    ["a call in arithmetic", "1+KAISHA.PLAIN(1)"],
  ])("%s: aborted before it starts -> not called, no onCanceled, no result", async (_, text) => {
    const f = functions();
    const controller = new AbortController();
    const result = evaluate(parseFormula(text), context(f.registry, controller.signal));
    controller.abort(); // before the engine reaches the call (arguments are read first)
    expect(await result).toBeNull();
    expect(f.calls).toEqual([]);
    expect(f.canceled).toEqual([]);
  });

  test("a chained formula cancelled while its inner call runs: the inner gets onCanceled, the outer is never called", async () => {
    const f = functions();
    const controller = new AbortController();
    const result = evaluate(
      parseFormula("KAISHA.OUTER(KAISHA.SLOW(1))"),
      context(f.registry, controller.signal),
    );
    await drain();
    expect(f.calls).toEqual(["SLOW(1)"]);
    controller.abort();
    expect(f.canceled).toEqual(["SLOW(1)"]);
    f.finish(5); // the inner call returns after all: its result reaches nothing
    expect(await result).toBeNull();
    expect(f.calls).toEqual(["SLOW(1)"]);
  });

  test("not aborted: the function is called once and its result is the cell", async () => {
    const f = functions();
    const grid = await evaluate(
      parseFormula("KAISHA.OUTER(KAISHA.PLAIN(2))"),
      context(f.registry, new AbortController().signal),
    );
    expect(grid?.[0]?.[0]).toMatchObject({ kind: "text", text: "OUTER:2" });
    expect(f.calls).toEqual(["PLAIN(2)", "OUTER(2)"]);
  });

  test("a call already running when the signal aborts gets onCanceled once", async () => {
    const f = functions();
    const controller = new AbortController();
    void evaluate(parseFormula("KAISHA.SLOW(3)"), context(f.registry, controller.signal));
    await drain();
    controller.abort();
    expect(f.calls).toEqual(["SLOW(3)"]);
    expect(f.canceled).toEqual(["SLOW(3)"]);
  });

  test.each([
    [
      "a call that returned is not running: a later cancellation does not call its onCanceled",
      "KAISHA.OUTER(1)",
      "OUTER:1",
      [],
    ],
    [
      "a streaming call runs on after its first result: cancelling the cell calls its onCanceled",
      "KAISHA.TICK()",
      "1",
      ["TICK()"],
    ],
  ])("%s", async (_, text, shown, canceled) => {
    const f = functions();
    const controller = new AbortController();
    const grid = await evaluate(parseFormula(text), context(f.registry, controller.signal));
    expect(grid?.[0]?.[0]).toMatchObject({ text: shown });
    controller.abort(); // the cell is entered again afterwards
    expect(f.canceled).toEqual(canceled);
  });

  test("the Excel stand-in's entry point: a superseded calculation resolves to null, the newer one to its cells", async () => {
    const f = functions();
    const cell = (text: string, signal: AbortSignal) =>
      evaluateStandInFormula({
        formula: text,
        at: { row: 0, col: 0 },
        sheetName: "Sheet1",
        metadata,
        implementations: f.registry,
        cellAt: () => undefined,
        signal,
        dataTypeArguments: "off",
        emptyArgument: "null",
      });
    const older = new AbortController();
    const first = cell("=KAISHA.PLAIN(1)", older.signal);
    older.abort(); // the cell was entered again
    const second = cell("=KAISHA.PLAIN(2)", new AbortController().signal);
    expect(await first).toBeNull();
    expect(await second).toEqual([[{ value: 2 }]]);
    expect(f.calls).toEqual(["PLAIN(2)"]);
  });
});
