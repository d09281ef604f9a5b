// Start-up with the sandbox: a sandbox build (npm start, e2e) opens connected with its demo key.

/**
 * Uses the build's demo key for this session (not remembered) when no key is set and the pane talks
 * to the very sandbox the build was made for. A production build has no demo key; another server
 * (a custom URL, production) never receives it. Returns whether the demo key was applied.
 * @example await applyDemoKeyOnSandbox(session, { demoKey: DEMO_KEY, sandboxBaseUrl: DEFAULT_BASE_URL, baseUrl })
 */
export async function applyDemoKeyOnSandbox(
  session: {
    keys: { current(): string | undefined };
    setKey(key: string, remember: boolean): Promise<void>;
  },
  options: { demoKey: string; sandboxBaseUrl: string; baseUrl: string },
): Promise<boolean> {
  if (options.demoKey === "" || session.keys.current()) return false;
  if (trimSlash(options.baseUrl) !== trimSlash(options.sandboxBaseUrl)) return false;
  await session.setKey(options.demoKey, false);
  return true;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
