// The sandbox on a worker thread for the Model runs: the API's own work (building and serializing
// answers) runs in another heap, as the real API runs on another machine (see worker-sandbox.ts).

import { parentPort, workerData } from "node:worker_threads";
import { createApp } from "../sandbox/app";
import { getDataset } from "../sandbox/data";
import { seasonFilingTimes } from "../sandbox/lib/filing-times";
import { aliasingApp, type AliasedCompany } from "./company-aliases";

/** What the main thread sends: the sandbox's limits and the companies it answers for. */
export interface SandboxWorkerData {
  ratePerMinute: number;
  dailyLimit: number;
  startMs: number;
  companies: AliasedCompany[];
  /**
   * An earnings-season night (bench/season-run.ts): a share of the dataset companies file at
   * `night`, the others have filed by `before`; the data clock then follows the requests' time.
   */
  season?: { share: number; night: string; before: string };
  /**
   * The data clock follows the requests' time from `startMs` (bench/calendar-run.ts: a filing
   * window's week, whose filings appear as the days pass); a season implies it. Otherwise the
   * dataset's own today (SANDBOX_DEFAULT_NOW).
   */
  followClock?: boolean;
}

/** A request, with the simulated time it reaches the API (the limiter counts on that clock). */
export interface WorkerRequest {
  id: number;
  url: string;
  headers: [string, string][];
  now: number;
}

export interface WorkerResponse {
  id: number;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: ArrayBuffer;
}

const data = workerData as SandboxWorkerData;
let now = data.startMs;
// The companies behind the Model's codes, in its order (aliases answer as their dataset company).
const bases = [...new Set(data.companies.map((c) => c.base))];
const season =
  data.season === undefined
    ? undefined
    : seasonFilingTimes(
        getDataset(),
        bases,
        data.season.share,
        data.season.night,
        data.season.before,
      );
const followsClock = season !== undefined || data.followClock === true;
const sandbox = createApp({
  ratePerMinute: data.ratePerMinute,
  dailyLimit: data.dailyLimit,
  rateClock: () => now,
  ...(followsClock ? { now: new Date(now).toISOString() } : {}),
  ...(season === undefined ? {} : { filingTimes: season.times }),
});
const app = aliasingApp(sandbox.app, data.companies);

parentPort?.on("message", (message: WorkerRequest | { id: number; count429: true }) => {
  if ("count429" in message) {
    const count = sandbox.requestLog.filter((e) => e.status === 429).length;
    // The filers too (bench/season-run.ts reports them): dataset codes, aliases not expanded.
    parentPort?.postMessage({ id: message.id, count, filers: season?.filers ?? [] });
    return;
  }
  void (async () => {
    now = message.now;
    // The data clock moves with the requests, so filings appear as time passes.
    if (followsClock) sandbox.setNow(new Date(now).toISOString());
    const response = await app.request(message.url, { headers: message.headers });
    const body = await response.arrayBuffer();
    const reply: WorkerResponse = {
      id: message.id,
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
      body,
    };
    parentPort?.postMessage(reply, [body]);
  })();
});
