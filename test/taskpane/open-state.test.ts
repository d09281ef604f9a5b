// The open's record for the pane ends when Refresh all runs, so its report never counts Refresh all's requests.
import { currentOpen, endOpen, onOpenRecorded, recordOpen } from "../../taskpane/open/open-state";
import type { OpenProgress, OpenResult } from "../../taskpane/open/morning-open";

function progress(): OpenProgress & { stopped: number } {
  const p = {
    stopped: 0,
    report: () => ({
      companies: 1,
      cells: 2,
      requests: 3,
      due: {} as OpenResult["due"],
    }),
    onChange: () => () => undefined,
    stop: () => {
      p.stopped += 1;
    },
  };
  return p;
}

describe("open-state", () => {
  test("endOpen stops the open's progress, forgets it and tells the pane", () => {
    const seen: unknown[] = [];
    const off = onOpenRecorded((r) => seen.push(r));
    const p = progress();
    const record = { result: new Promise<OpenResult>(() => undefined), progress: p };
    recordOpen(record);
    expect(currentOpen()).toBe(record);
    endOpen();
    expect(currentOpen()).toBeUndefined();
    expect(p.stopped).toBe(1);
    expect(seen).toEqual([record, undefined]);
    endOpen();
    expect(seen).toHaveLength(2);
    off();
  });
});
