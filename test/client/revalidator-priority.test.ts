// The background queue sends the companies of the sheet on screen first, then the rest in order.
import { Revalidator, type RevalidationTask } from "../../src/client/revalidator";

/** Each request takes the pacer's second (60/min); the order they are sent in is recorded. */
function harness() {
  const sent: string[] = [];
  const revalidator = new Revalidator({ now: Date.now, intervalMs: () => 1000, concurrency: 1 });
  const task = (company: string, kind = "prices"): RevalidationTask => ({
    key: `${company}|${kind}`,
    company,
    filing: false,
    rank: 0,
    refresh: () =>
      new Promise<boolean>((resolve) => {
        sent.push(company);
        setTimeout(() => resolve(false), 1000);
      }),
    touch: async () => undefined,
  });
  return { sent, revalidator, task };
}

const onSheet = (sheet: string) => (address: string) => address.startsWith(`'${sheet}'!`);

beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 10, 20, 0, 0) }));
afterEach(() => jest.useRealTimers());

test("companies on the active sheet are revalidated before those queued earlier", async () => {
  const h = harness();
  h.revalidator.schedule(h.task("A"), "'Comps'!B2");
  h.revalidator.schedule(h.task("B"), "'Comps'!B3");
  h.revalidator.schedule(h.task("C"), "'Model'!C5");
  h.revalidator.schedule(h.task("D"), "'Comps'!B4");
  h.revalidator.schedule(h.task("E"), "'Model'!C6");
  // A is in flight; the user looks at Model.
  h.revalidator.prioritize(onSheet("Model"));
  await jest.advanceTimersByTimeAsync(5000);
  expect(h.sent).toEqual(["A", "C", "E", "B", "D"]);
});

test("a company queued after the sheet was activated goes ahead of the others", async () => {
  const h = harness();
  h.revalidator.prioritize(onSheet("Model"));
  h.revalidator.schedule(h.task("A"), "'Comps'!B2");
  h.revalidator.schedule(h.task("B"), "'Comps'!B3");
  h.revalidator.schedule(h.task("C"), "'Comps'!B4");
  h.revalidator.schedule(h.task("D"), "'Model'!C5");
  await jest.advanceTimersByTimeAsync(4000);
  expect(h.sent).toEqual(["A", "D", "B", "C"]);
});

test("a company becomes a priority when a cell of the active sheet reads its queued answer", async () => {
  const h = harness();
  h.revalidator.prioritize(onSheet("Model"));
  h.revalidator.schedule(h.task("A"), "'Comps'!B2");
  h.revalidator.schedule(h.task("B"), "'Comps'!B3");
  h.revalidator.schedule(h.task("C"), "'Comps'!B4");
  // The Model sheet's cell asks C's answer too (the same task key: not queued twice).
  h.revalidator.schedule(h.task("C"), "'Model'!D9");
  await jest.advanceTimersByTimeAsync(3000);
  expect(h.sent).toEqual(["A", "C", "B"]);
});

test("activating another sheet replaces the priority; none restores the queue order", async () => {
  const h = harness();
  h.revalidator.schedule(h.task("A"), "'One'!A1");
  h.revalidator.schedule(h.task("B"), "'One'!A2");
  h.revalidator.schedule(h.task("C"), "'Two'!A1");
  h.revalidator.schedule(h.task("D"), "'Three'!A1");
  h.revalidator.prioritize(onSheet("Three"));
  h.revalidator.prioritize(onSheet("Two"));
  await jest.advanceTimersByTimeAsync(2000);
  h.revalidator.prioritize(undefined);
  await jest.advanceTimersByTimeAsync(2000);
  expect(h.sent).toEqual(["A", "C", "B", "D"]);
});
