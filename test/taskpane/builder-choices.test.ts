// Every list the formula builder offers is what the functions accept: each value, entered through the
// builder into the real KAISHA function against the in-process sandbox, is not refused; a value outside
// a list is; and a parameter with a custom enum in functions.json offers exactly that enum.
import * as TYPED from "../../functions/index";
import { FIELD_DICTIONARY } from "../../src/contract";
import {
  builderArgs,
  builderCatalogue,
  exampleValues,
  type BuilderFunction,
  type BuilderParam,
  type EnumMetadata,
  type FunctionMetadata,
} from "../../taskpane/state/function-catalogue";
import { generatedFunctionsJson } from "./functions-metadata";
import { cellError, invocation, resetSession, useSandbox } from "../functions/harness";

/** The wrappers as Excel calls them: any value for any argument. */
const KAISHA = TYPED as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

jest.setTimeout(120_000);
afterAll(resetSession);

let english: FunctionMetadata[];
let enums: EnumMetadata[];
let catalogue: BuilderFunction[];
/** Values for required inputs that are not lists, so each call reaches the list argument. */
const sample: Record<string, string> = {};

beforeAll(async () => {
  const json = await generatedFunctionsJson();
  english = json.functions;
  enums = json.enums;
  catalogue = builderCatalogue(english, english, enums);
  const h = useSandbox();
  const listing = await h.client.securityDisclosures({ code: "7203" });
  const doc = listing.disclosures.find((d) => d.doc_id.startsWith("S"));
  if (!doc) throw new Error("the sandbox has no statutory filing for 7203");
  sample.doc_id = doc.doc_id;
  const officer = (await h.client.officers({ code: "7203" })).officers[0];
  if (!officer) throw new Error("the sandbox has no officers for 7203");
  sample.person_id = officer.person_id;
}, 60_000);

/** Every (function, list parameter) pair of the catalogue. */
function lists(): { fn: BuilderFunction; param: BuilderParam; options: readonly string[] }[] {
  const out: { fn: BuilderFunction; param: BuilderParam; options: readonly string[] }[] = [];
  for (const fn of catalogue) {
    for (const param of fn.params) {
      if (param.kind.type === "choice") out.push({ fn, param, options: param.kind.options });
    }
  }
  return out;
}

/** The function called as the builder writes it: its example inputs plus `param` = `value`. */
function callThroughBuilder(fn: BuilderFunction, param: string, value: string): Promise<unknown> {
  const values = { ...exampleValues(fn), ...sample, [param]: value };
  const args = builderArgs(fn, values).map((a) => (a === undefined ? null : a));
  const impl = KAISHA[fn.name];
  if (!impl) throw new Error(`functions/index.ts has no ${fn.name}`);
  return impl(...args, invocation());
}

/** "#VALUE! period ..." when the call refuses an argument; undefined when it gives a value or #N/A. */
async function refusal(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return undefined;
  } catch (err) {
    const { code, message } = await cellError(Promise.reject(err));
    return code === "#VALUE!" ? message : undefined;
  }
}

test("every value of every builder list is accepted by the function it is offered for", async () => {
  useSandbox();
  const refused: string[] = [];
  let checked = 0;
  for (const { fn, param, options } of lists()) {
    for (const option of options) {
      const message = await refusal(callThroughBuilder(fn, param.name, option));
      checked++;
      if (message !== undefined) refused.push(`${fn.name}.${param.name}=${option}: ${message}`);
    }
  }
  expect(refused).toEqual([]);
  expect(checked).toBeGreaterThan(80);
});

test("a value outside a closed builder list is refused by the function, naming the argument", async () => {
  useSandbox();
  const accepted: string[] = [];
  let checked = 0;
  for (const { fn, param } of lists()) {
    if (param.kind.type === "choice" && param.kind.freeform) continue;
    const message = await refusal(callThroughBuilder(fn, param.name, "9zz"));
    checked++;
    if (message === undefined || !message.includes(param.name)) {
      accepted.push(`${fn.name}.${param.name}: ${message ?? "accepted"}`);
    }
  }
  expect(accepted).toEqual([]);
  expect(checked).toBeGreaterThan(30);
});

test("a parameter with a custom enum offers exactly the enum's values, in its order", () => {
  let withEnum = 0;
  for (const f of english) {
    const fn = catalogue.find((x) => x.name === f.name);
    for (const p of f.parameters) {
      if (p.customEnumId === undefined) continue;
      withEnum++;
      const e = enums.find((x) => x.id === p.customEnumId);
      const kind = fn?.params.find((x) => x.name === p.name)?.kind;
      const values = e?.values.map((v) => String(v.stringValue ?? v.numberValue));
      expect({ param: `${f.name}.${p.name}`, kind }).toEqual({
        param: `${f.name}.${p.name}`,
        kind: expect.objectContaining({ type: "choice", options: values }),
      });
    }
  }
  expect(withEnum).toBeGreaterThan(30);
});

test("every financial item the builder lists is one FINANCIAL reads", async () => {
  useSandbox();
  const financial = catalogue.find((f) => f.name === "FINANCIAL");
  if (!financial) throw new Error("no FINANCIAL");
  const item = financial.params.find((p) => p.name === "item");
  expect(item?.kind).toEqual({ type: "item", dataset: "financials" });
  const refused: string[] = [];
  for (const key of FIELD_DICTIONARY.financials.map((f) => f.key)) {
    const message = await refusal(callThroughBuilder(financial, "item", key));
    if (message !== undefined) refused.push(`${key}: ${message}`);
  }
  expect(refused).toEqual([]);
  expect(await refusal(callThroughBuilder(financial, "item", "9zz"))).toMatch(/item/);
});

test("FINANCIAL's quarter list includes H2 (full year − H1), as the function's enum does", () => {
  const quarter = catalogue
    .find((f) => f.name === "FINANCIAL")
    ?.params.find((p) => p.name === "quarter")?.kind;
  expect(quarter).toEqual({
    type: "choice",
    options: ["Q1", "Q2", "Q3", "Q4", "H1", "H2", "full_year"],
  });
});
