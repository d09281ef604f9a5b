// Names every object inherits (constructor, __proto__, toString, hasOwnProperty, …) are no valid
// argument: every choice and item argument of every function refuses them with #VALUE! naming the
// argument, before any request (src/excel/own-key.ts: tables are read by their own entries only).
import * as TYPED from "../../functions/index";
import {
  builderArgs,
  builderCatalogue,
  exampleValues,
  type BuilderFunction,
} from "../../taskpane/state/function-catalogue";
import { ownValue } from "../../src/excel/own-key";
import { tableLabel } from "../../taskpane/state/english-labels";
import { englishLabel } from "../../taskpane/state/metric-labels";
import { periodLabel } from "../../taskpane/state/resolved-text";
import { htmlToText } from "../../src/excel/text";
import { generatedFunctionsJson } from "../taskpane/functions-metadata";
import { cellError, invocation, resetSession, useSandbox } from "../functions/harness";

const KAISHA = TYPED as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

jest.setTimeout(120_000);
afterAll(resetSession);

/** Members of Object.prototype, as a user could type them (and two case variants choices fold). */
const PROTOTYPE_NAMES = [
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
  "CONSTRUCTOR",
  "ToString",
];

let catalogue: BuilderFunction[];
const sample: Record<string, string> = { doc_id: "S100TEST", person_id: "100001" };

beforeAll(async () => {
  const json = await generatedFunctionsJson();
  catalogue = builderCatalogue(json.functions, json.functions, json.enums);
}, 60_000);

function call(fn: BuilderFunction, param: string, value: string): Promise<unknown> {
  const values = { ...exampleValues(fn), ...sample, [param]: value };
  const args = builderArgs(fn, values).map((a) => (a === undefined ? null : a));
  const impl = KAISHA[fn.name];
  if (!impl) throw new Error(`functions/index.ts has no ${fn.name}`);
  return impl(...args, invocation());
}

test("every choice and item argument of every function refuses each prototype name: #VALUE! naming it, no request", async () => {
  const h = useSandbox();
  const accepted: string[] = [];
  let checked = 0;
  for (const fn of catalogue) {
    for (const param of fn.params) {
      if (param.kind.type !== "choice" && param.kind.type !== "item") continue;
      for (const name of PROTOTYPE_NAMES) {
        const before = h.sent();
        let outcome: string;
        try {
          const { code, message } = await cellError(call(fn, param.name, name));
          outcome = code === "#VALUE!" && message.includes(param.name) ? "" : `${code} ${message}`;
        } catch (err) {
          outcome = `value or throw: ${String(err)}`;
        }
        checked += 1;
        if (h.sent() !== before) outcome += ` (${h.sent() - before} requests)`;
        if (outcome !== "") accepted.push(`${fn.name}.${param.name}=${name}: ${outcome}`);
      }
    }
  }
  expect(accepted).toEqual([]);
  // Every list argument of the 26 functions (order, layout, quarter, period, unit, headers, …).
  expect(checked).toBeGreaterThan(40 * PROTOTYPE_NAMES.length);
});

test('FINANCIAL(7203,"sales",,,,"constructor") and the quarter, order and layout slots: #VALUE!, nothing sent', async () => {
  const h = useSandbox();
  const financial = KAISHA.FINANCIAL as (...a: unknown[]) => Promise<unknown>;
  const asQuarter = await cellError(
    financial("7203", "sales", null, null, "constructor", null, invocation()),
  );
  const asUnit = await cellError(
    financial("7203", "sales", null, null, null, "constructor", invocation()),
  );
  expect([asQuarter.code, asUnit.code]).toEqual(["#VALUE!", "#VALUE!"]);
  expect(asQuarter.message).not.toMatch(/native code/);
  const financials = KAISHA.FINANCIALS as (...a: unknown[]) => Promise<unknown>;
  for (const bad of ["constructor", "__proto__"]) {
    const layout = await cellError(
      financials("7203", null, null, null, null, null, bad, null, null, invocation()),
    );
    const order = await cellError(
      financials("7203", null, null, null, null, null, null, null, bad, invocation()),
    );
    expect([layout.code, order.code]).toEqual(["#VALUE!", "#VALUE!"]);
    expect([layout.message, order.message]).toEqual([
      expect.stringContaining("layout"),
      expect.stringContaining("order"),
    ]);
  }
  expect(h.sent()).toBe(0);
});

test("a table read by an inherited name finds nothing; received text keeps &constructor; as typed", () => {
  expect(ownValue({ 円: "jpy" }, "constructor")).toBeUndefined();
  expect(ownValue({ 円: "jpy" }, "__proto__")).toBeUndefined();
  expect(ownValue({ 円: "jpy" }, "円")).toBe("jpy");
  expect(htmlToText("A &constructor; B &amp; C")).toBe("A &constructor; B & C");
});

test("the pane's labels of received keys and quarters read their tables' own entries: an inherited name is shown as received, never a function", () => {
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    expect(tableLabel(name)).toBeUndefined();
    expect(englishLabel(name)).not.toMatch(/function|native code|\[object/);
    expect(periodLabel({ fiscal_year: "2025/03", quarter: name, type: "quarterly" }, "ja")).toBe(
      `2025年3月期 ${name}`,
    );
  }
});
