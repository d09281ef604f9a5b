// A recalculated FINANCIAL cell gives what a cold session gives for the same arguments, whatever
// its neighbours asked of the same answer first: units, periods and the host's number formats.
import { financial } from "../../functions/financial-cell";
import { setHostCapabilities } from "../../functions/host";
import { SANDBOX_DEFAULT_NOW } from "../../sandbox/data/model";
import { invocation, resetSession, useSandbox } from "./harness";

jest.setTimeout(60_000);
afterAll(resetSession);

const NOW = Date.parse(SANDBOX_DEFAULT_NOW);

type Args = readonly [unknown, unknown, unknown, unknown, unknown];

/** One period and item asked in every unit, and neighbours of it (another period, H2, quarter). */
const CELLS: readonly Args[] = [
  ["sales", "FY-1", null, null, null],
  ["sales", "FY-1", null, null, "million_jpy"],
  ["sales", "FY-1", null, null, "億円"],
  ["sales", "FY-1", null, null, "thousand_jpy"],
  ["sales", "FY-2", null, null, "million_jpy"],
  ["operating_profit", "FY-1", null, null, "million_jpy"],
  ["roe", "FY-1", null, null, null],
  ["sales", "2024H2", null, null, "million_jpy"],
  ["sales", "2024H1", null, null, "million_jpy"],
  ["sales", "FQ-1", null, null, "million_jpy"],
];

/** Each cell in a fresh session of its own: nothing else asked of the answer before it. */
async function alone(dataTypes: boolean): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const args of CELLS) {
    useSandbox({ now: NOW, dataTypes });
    out.push(await financial("7203", ...args, invocation()));
  }
  return out;
}

test.each([false, true])(
  "every unit and period of one answer recalculated gives its own value (formatted numbers %s)",
  async (dataTypes) => {
    const expected = await alone(dataTypes);
    const h = useSandbox({ now: NOW, dataTypes });
    for (const args of CELLS) await financial("7203", ...args, invocation());
    const asked = h.sent();
    // Twice, in the reverse order: each cell from memory, none taking a neighbour's value.
    for (let round = 0; round < 2; round += 1) {
      const again: unknown[] = [];
      for (const args of [...CELLS].reverse())
        again.unshift(await financial("7203", ...args, invocation()));
      expect(again).toEqual(expected);
    }
    expect(h.sent()).toBe(asked);
  },
);

test("a host that gains formatted numbers gets them on the next recalculation", async () => {
  useSandbox({ now: NOW, dataTypes: false });
  const args: Args = ["sales", "FY-1", null, null, "million_jpy"];
  const plain = await financial("7203", ...args, invocation());
  expect(typeof plain).toBe("number");
  setHostCapabilities({ dataTypes: true });
  expect(await financial("7203", ...args, invocation())).toEqual({
    type: "Double",
    basicValue: plain,
    numberFormat: expect.any(String),
  });
});
