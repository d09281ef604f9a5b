// KaishaClient.derived: state the domain keeps beside the client's answers (src/domain/price-windows.ts's
// ranges) is one per slot for a client and its withOptions copies, and goes when the answers go.
import { createClient } from "../../src/client";
import { TEST_KEY, recordingFetch } from "./helpers";

/** A state that counts how often it was cleared. */
function counter(): { cleared: number; clear(): void } {
  return {
    cleared: 0,
    clear() {
      this.cleared += 1;
    },
  };
}

const SLOT = Symbol("test state");

function client() {
  return createClient({ apiKey: TEST_KEY, fetch: recordingFetch().fetch, ratePerMinute: 0 });
}

test("one state per slot, made once and shared by withOptions copies", () => {
  const c = client();
  const made = c.derived(SLOT, counter);
  expect(c.derived(SLOT, counter)).toBe(made);
  expect(c.withOptions({ lang: "en" }).derived(SLOT, counter)).toBe(made);
  // Another client keeps its own.
  expect(client().derived(SLOT, counter)).not.toBe(made);
});

test("invalidateAll and forgetKey clear it with the answers", async () => {
  const c = client();
  const state = c.derived(SLOT, counter);
  await c.invalidateAll();
  expect(state.cleared).toBe(1);
  await c.withOptions({ lang: "en" }).forgetKey();
  expect(state.cleared).toBe(2);
});
