// Main-thread side of bench/sandbox-worker.ts: a RequestableApp whose answers come from the worker.

import { Worker } from "node:worker_threads";
import type { AliasedCompany } from "./company-aliases";
import type { RequestableApp } from "./in-process-fetch";
import type { SandboxWorkerData, WorkerRequest, WorkerResponse } from "./sandbox-worker";

/** The worker-hosted sandbox: its app, the 429s it answered, and how to stop it. */
export interface WorkerSandbox {
  app: RequestableApp;
  count429(): Promise<number>;
  /** Dataset companies filing on the season night (SandboxWorkerData.season), else empty. */
  filers(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Starts the sandbox on a worker thread. Why: the Models measure the add-in's heap, and an
 * in-process sandbox put its own garbage there (each answer serialized as several large strings:
 * JSON text, its well-formed copy, the aliasing rewrites), which V8 keeps until a major GC: at the
 * cold run's peak most of the large-object space was the sandbox's. Requests carry the simulated
 * time (`now`), so the limiter counts exactly as in process; process.cpuUsage still counts both
 * threads. `hold` stops the virtual clock while a request is with the worker, so real time spent
 * there never turns into simulated time.
 */
export function startWorkerSandbox(
  options: Omit<SandboxWorkerData, "companies">,
  companies: readonly AliasedCompany[],
  now: () => number,
  hold: () => () => void,
): WorkerSandbox {
  const workerData: SandboxWorkerData = { ...options, companies: [...companies] };
  const worker = new Worker(
    `require("ts-node").register({ transpileOnly: true }); require(${JSON.stringify(require.resolve("./sandbox-worker.ts"))});`,
    { eval: true, workerData },
  );
  let nextId = 0;
  const waiting = new Map<number, (reply: unknown) => void>();
  worker.on("message", (reply: { id: number }) => {
    const settle = waiting.get(reply.id);
    waiting.delete(reply.id);
    settle?.(reply);
  });
  const ask = <T>(message: object): Promise<T> =>
    new Promise<T>((resolve) => {
      const id = (nextId += 1);
      waiting.set(id, resolve as (reply: unknown) => void);
      worker.postMessage({ ...message, id });
    });
  return {
    app: {
      async request(input: string, init?: RequestInit): Promise<Response> {
        const release = hold();
        try {
          const request: Omit<WorkerRequest, "id"> = {
            url: input,
            headers: [...new Headers(init?.headers)],
            now: now(),
          };
          const reply = await ask<WorkerResponse>(request);
          return new Response(reply.status === 204 ? null : reply.body, {
            status: reply.status,
            statusText: reply.statusText,
            headers: reply.headers,
          });
        } finally {
          release();
        }
      },
    },
    count429: () => ask<{ count: number }>({ count429: true }).then((r) => r.count),
    filers: () => ask<{ filers: string[] }>({ count429: true }).then((r) => r.filers),
    close: async () => {
      await worker.terminate();
    },
  };
}
