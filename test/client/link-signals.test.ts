// linkSignals: a waiting request stops with its caller or its key's stop signal, and the key's signal keeps one listener however many wait.
import { linkSignals } from "../../src/client/link-signals";

describe("linkSignals", () => {
  test("the key's stop aborts every request still waiting, not those released; one listener on it for all", () => {
    const stop = new AbortController();
    const added = jest.spyOn(stop.signal, "addEventListener");
    const links = Array.from({ length: 1_000 }, () => linkSignals(undefined, stop.signal));
    expect(added).toHaveBeenCalledTimes(1);
    for (const link of links.slice(0, 400)) link.release();
    stop.abort();
    expect(links.filter((l) => l.signal.aborted)).toHaveLength(600);
    expect(links.slice(0, 400).some((l) => l.signal.aborted)).toBe(false);
  });

  test("the caller's abort stops its request alone, with the caller's reason", () => {
    const stop = new AbortController();
    const caller = new AbortController();
    const mine = linkSignals(caller.signal, stop.signal);
    const other = linkSignals(undefined, stop.signal);
    caller.abort("cell recalculated");
    expect(mine.signal.aborted).toBe(true);
    expect(mine.signal.reason).toBe("cell recalculated");
    expect(other.signal.aborted).toBe(false);
  });

  test("a signal already aborted gives an aborted link at once", () => {
    const stop = new AbortController();
    stop.abort();
    const link = linkSignals(undefined, stop.signal);
    expect(link.signal.aborted).toBe(true);
    link.release();
    const caller = new AbortController();
    caller.abort();
    expect(linkSignals(caller.signal, new AbortController().signal).signal.aborted).toBe(true);
  });
});
