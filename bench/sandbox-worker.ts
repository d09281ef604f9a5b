// The sandbox on a worker thread for the Model runs: the API's own work (building and serializing
// answers) runs in another heap, as the real API runs on another machine (see worker-sandbox.ts).

import { parentPort, workerData } from "node:worker_threads";
import { createApp } from "../sandbox/app";
import { aliasingApp, type AliasedCompany } from "./company-aliases";

/** What the main thread sends: the sandbox's limits and the companies it answers for. */
export interface SandboxWorkerData {
  ratePerMinute: number;
  dailyLimit: number;
  startMs: number;
  companies: AliasedCompany[];
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
const sandbox = createApp({
  ratePerMinute: data.ratePerMinute,
  dailyLimit: data.dailyLimit,
  rateClock: () => now,
});
const app = aliasingApp(sandbox.app, data.companies);

parentPort?.on("message", (message: WorkerRequest | { id: number; count429: true }) => {
  if ("count429" in message) {
    const count = sandbox.requestLog.filter((e) => e.status === 429).length;
    parentPort?.postMessage({ id: message.id, count });
    return;
  }
  void (async () => {
    now = message.now;
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
