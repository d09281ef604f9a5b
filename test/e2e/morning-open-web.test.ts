// The morning after results on the Excel stand-in's web model, which calls every custom function
// at load (the scenario: ./morning-scenario.ts).
import type { Harness } from "./harness";
import type { CellInfo } from "./cockpit-helpers";
import {
  expectCurrent,
  KAISHA_CELLS,
  morning,
  prepareMorning,
  ROWS,
  TYPED,
  type Prepared,
} from "./morning-scenario";

describe("web model: Excel on the web calls every custom function at load", () => {
  let h: Harness;
  let saved: Prepared["saved"];
  let fresh: CellInfo[][];

  beforeAll(async () => {
    ({ h, saved, fresh } = await prepareMorning("web"));
  }, 600_000);

  afterAll(async () => {
    await h?.close();
  });

  test("marked before the update, equal to a fresh session after it; the add-in recalculates nothing the host called and asks nothing twice", async () => {
    const run = await morning(h, "web", saved.withStartup);
    expectCurrent(saved.evening, run.before, run.after, fresh);
    expect(run.summary.requests).toBe(run.morningRequests.length);
    expect(new Set(run.morningRequests).size).toBe(run.morningRequests.length);
    // The host's calls at load, once more by the open only if they came before the runtime had
    // the session's key (they then sent nothing and read nothing), and the background's.
    expect(run.callsAtOpen).toBeLessThanOrEqual(2 * KAISHA_CELLS);
    expect(run.calls - run.callsAtOpen).toBeLessThanOrEqual(run.summary.cells);
    expect(run.after[ROWS - 1]?.[2]).toMatchObject({ value: TYPED.text });
  }, 600_000);
});
