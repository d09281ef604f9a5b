// The open's report ends where it stands when Refresh all runs: Refresh all's requests are never counted as the open's.
import { endOpen, recordOpen } from "../../taskpane/open/open-state";
import { followOpen, type OpenClient, type OpenResult } from "../../taskpane/open/morning-open";
import type { RevalidationStatus } from "../../src/client";

function fakeClient(): OpenClient & { sent: number } {
  const status = { companies: 0, requests: 0, inFlight: 0 } as RevalidationStatus;
  const c = {
    sent: 10,
    stats: () => ({ requestsSent: c.sent }),
    revalidation: () => ({
      status: () => status,
      onStatus: () => () => undefined,
      onRecalculate: () => () => undefined,
      pause: () => undefined,
      resume: () => undefined,
    }),
  };
  return c;
}

describe("open-state", () => {
  test("endOpen freezes the open's request count; the open stays recorded", () => {
    const client = fakeClient();
    const progress = followOpen(client);
    recordOpen({ result: new Promise<OpenResult>(() => undefined), progress });
    client.sent += 3; // the open's own requests
    expect(progress.report().requests).toBe(3);
    endOpen();
    client.sent += 13; // Refresh all's
    expect(progress.report().requests).toBe(3);
  });
});
