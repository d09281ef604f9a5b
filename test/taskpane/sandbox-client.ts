// The real shared client wired to the in-process sandbox, for task pane flow tests.

import { createApp, type Sandbox } from "../../sandbox/app";
import { createClient, type KaishaClient, type FetchLike } from "../../src/client";
import { sandboxAnswer, sandboxClientOptions } from "../functions/session-client";

export interface SandboxClient {
  sandbox: Sandbox;
  client: KaishaClient;
  /** "path?query" of every request that reached the sandbox. */
  requests(): string[];
}

export function sandboxClient(): SandboxClient {
  const sandbox = createApp({ ratePerMinute: 0 });
  const fetch: FetchLike = async (url, init) => {
    const u = new URL(url);
    return sandboxAnswer(sandbox, u, init);
  };
  const client = createClient(sandboxClientOptions(fetch));
  return {
    sandbox,
    client,
    requests: () => sandbox.requestLog.map((e) => `${e.path}${e.query ? `?${e.query}` : ""}`),
  };
}
