// Shared helpers for the sandbox tests: an app with test-friendly defaults and a GET shortcut.
import { createApp, type Sandbox, type SandboxOptions } from "../../sandbox/app";
import { getDataset } from "../../sandbox/data";
import { DEMO_API_KEY } from "../../sandbox/demo-key";

/** A sandbox without the per-minute limit (tests send bursts) unless a test asks for one. */
export function makeSandbox(options: SandboxOptions = {}): Sandbox {
  return createApp({ ratePerMinute: 0, ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected freely
  body: any;
}

/**
 * GETs a path on the app with the demo key (or `key`, or no Authorization header with
 * `authorization: null`), and parses the JSON body.
 */
export async function get(
  sandbox: Sandbox,
  path: string,
  init: { key?: string; authorization?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.authorization !== null) {
    headers["Authorization"] = init.authorization ?? `Bearer ${init.key ?? DEMO_API_KEY}`;
  }
  const res = await sandbox.app.request(path, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === "" ? null : JSON.parse(text) };
}

/** The details of a 400 answer as `param:reason` strings, for compact assertions. */
export function reasons(answer: Answer): string[] {
  const details = (answer.body?.error?.details ?? []) as { param: string; reason: string }[];
  return details.map((d) => `${d.param}:${d.reason}`);
}

/**
 * Builds the shared dataset once per test file before the tests run: generating it takes seconds,
 * which would otherwise land inside the first test's timeout.
 */
export function warmDataset(): void {
  beforeAll(() => {
    getDataset();
  }, 120_000);
}
