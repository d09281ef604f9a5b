// The e2e pages never leave this machine: the harness aborts every request to another host before
// it is sent (test/e2e/harness.ts), whatever a page's own policy would let through.
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** Hosts that are not this machine, some named to look like it. */
const ELSEWHERE = [
  "https://example.com/",
  "http://93.184.216.34/",
  "http://localhost.example.com/",
  "https://127.0.0.1.example.com/path",
];

test("a request to another host fails as the harness aborts it; this machine's servers answer", async () => {
  // A blank page: no policy of the add-in's (its connect-src would refuse these before any
  // request), only the harness's route between the page and the network.
  const page = await h.context.newPage();
  const failures = new Map<string, string | undefined>();
  page.on("requestfailed", (request) => failures.set(request.url(), request.failure()?.errorText));
  const outcomes = await page.evaluate(
    async ({ urls, local }) =>
      Promise.all(
        [...urls, local].map((url) =>
          fetch(url, { mode: "no-cors" }).then(
            () => "answered",
            () => "failed",
          ),
        ),
      ),
    { urls: ELSEWHERE, local: `${h.server.url}/taskpane.html` },
  );
  expect(outcomes).toEqual([...ELSEWHERE.map(() => "failed"), "answered"]);
  // Aborted by the route (net::ERR_FAILED), not refused by a name look-up or a connection.
  for (const url of ELSEWHERE) expect([url, failures.get(url)]).toEqual([url, "net::ERR_FAILED"]);
  await page.close();
});
