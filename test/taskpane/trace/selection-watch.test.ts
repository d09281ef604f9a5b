// The Why view follows the selection where the host has Workbook.onSelectionChanged, and stops on
// unsubscribe; a host without the event is left to the button.
import { followSelection } from "../../../taskpane/excel/selection-watch";

type Handler = () => Promise<void>;

function fakeExcel(withEvent: boolean) {
  const handlers = new Set<Handler>();
  const context = {
    workbook: withEvent
      ? {
          onSelectionChanged: {
            add(h: Handler) {
              handlers.add(h);
              return { remove: () => handlers.delete(h) };
            },
          },
        }
      : {},
    sync: async () => undefined,
  };
  (globalThis as { Excel?: unknown }).Excel = {
    run: <T>(batch: (c: typeof context) => Promise<T>) => batch(context),
  };
  return { fire: async () => Promise.all([...handlers].map((h) => h())), handlers };
}

afterEach(() => {
  delete (globalThis as { Excel?: unknown }).Excel;
});

test("each selection change calls the listener until unsubscribed", async () => {
  const excel = fakeExcel(true);
  let calls = 0;
  const off = await followSelection(() => (calls += 1));
  await excel.fire();
  await excel.fire();
  expect(calls).toBe(2);
  off();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(excel.handlers.size).toBe(0);
});

test("a host without the event: nothing is followed, nothing fails", async () => {
  fakeExcel(false);
  const off = await followSelection(() => {
    throw new Error("never called");
  });
  expect(() => off()).not.toThrow();
});
