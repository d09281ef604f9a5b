// The one API client shared by functions and task pane, with the user's settings and key provider.

import {
  createClient,
  PRODUCTION_BASE_URL,
  REVALIDATION_SETTLE_MS,
  type KaishaClient,
  MemoryCacheStore,
  type CacheStore,
} from "./client";
import type { HeaderLanguage } from "./excel/shape";
import { loadBudget, storedLedger } from "./revalidation-budget";

/** The shared client's type. */
export type Client = KaishaClient;

/**
 * Build-time default base URL: webpack's DefinePlugin replaces `__KAISHA_DEFAULT_BASE_URL__` with a
 * string literal. Node (tests, bench) has no such constant, hence the typeof guard.
 */
declare const __KAISHA_DEFAULT_BASE_URL__: string;
export const DEFAULT_BASE_URL: string =
  typeof __KAISHA_DEFAULT_BASE_URL__ === "string" && __KAISHA_DEFAULT_BASE_URL__ !== ""
    ? __KAISHA_DEFAULT_BASE_URL__
    : PRODUCTION_BASE_URL;

/**
 * Same-origin path of the add-in host's relay (the live API may not answer CORS for the add-in's
 * origin: README "Using a real key", Relay mode). The host (scripts/dev-server.ts RELAY_PREFIX)
 * forwards `<RELAY_PATH>/<rest>` to the upstream base URL it is configured with.
 */
const RELAY_PATH = "/relay/v1";

/** direct: the browser calls the API; relay: requests go through the add-in host's own origin. */
export type ConnectionMode = "direct" | "relay";
export type Lang = "en" | "ja";

export interface SessionSettings {
  /** API base URL, e.g. https://api.irbank.net/v1 or the sandbox http://127.0.0.1:8787/v1. */
  baseUrl: string;
  connectionMode: ConnectionMode;
  /** Header cells: field keys (default) or Japanese labels. A user setting, not per workbook. */
  headerLanguage: HeaderLanguage;
  /** Language of messages (error cells, pane); startup sets it from Office's display language. */
  lang: Lang;
}

const DEFAULT_SETTINGS: Readonly<SessionSettings> = {
  baseUrl: DEFAULT_BASE_URL,
  connectionMode: "direct",
  headerLanguage: "keys",
  lang: "en",
};

/** Returns the current API key, or undefined when none is set (the task pane owns key storage). */
export type KeyProvider = () => string | undefined;

type Listener = (settings: Readonly<SessionSettings>) => void;

/** Replaced, never changed in place (frozen): every cell reads it, so getSettings needs no copy. */
let settings: SessionSettings = Object.freeze({ ...DEFAULT_SETTINGS });
/** The key as the client reads it: the page's provider, or the wait for it (`awaitKeyProvider`). */
let keyProvider: () => string | undefined | Promise<string | undefined> = () => undefined;
/** Ends `awaitKeyProvider`'s wait: a provider is registered. */
let providerCame: (() => void) | undefined;
/** A page registered its key provider (`setKeyProvider`): nothing to wait for. */
let providerSet = false;
let cacheStore: CacheStore | undefined;
/**
 * The shared client once made (`getClient` makes it): read as a binding by the cells' warm path
 * (functions/cells/define-cell.ts), which then enters no code of this file.
 */
export let sessionClient: Client | undefined;
let injected = false;
const listeners = new Set<Listener>();

/**
 * The URL requests actually go to: the base URL itself (direct), or the relay path on the page's
 * own origin (relay), which forwards to the upstream chosen by the host's configuration.
 */
export function effectiveBaseUrl(s: Readonly<SessionSettings> = settings): string {
  if (s.connectionMode === "direct") return s.baseUrl;
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== "null" ? `${origin}${RELAY_PATH}` : RELAY_PATH;
}

function buildClient(): Client {
  // The session owns the store so that value previews can read it without sending (preview.ts).
  cacheStore ??= new MemoryCacheStore();
  return createClient({
    baseUrl: effectiveBaseUrl(),
    // A function, so a key saved later is used without rebuilding the client (and never copied).
    apiKey: () => keyProvider(),
    lang: settings.lang,
    cacheStore,
    // An answer missing a field the functions read is refused with its name (response-check.ts).
    checkAnswers: true,
    // On open every cell answers from what is stored (README "the morning open"); due answers are
    // asked again behind the cells (src/client/freshness.ts decides what is due).
    staleWhileRevalidate: true,
    // One check per company on a morning open: checks start once the cells are in.
    revalidationSettleMs: REVALIDATION_SETTLE_MS,
    // The user's daily budget (800 unless set) and today's count from an earlier session, given
    // at creation: the first background request (a cell's, before the pane has even loaded) is
    // already counted against them.
    revalidationDailyBudget: loadBudget(),
    revalidationLedger: storedLedger(),
  });
}

/**
 * The shared client, created on first use.
 *
 * @example const body = await getClient().financials({ security_code: "7203" });
 */
export function getClient(): Client {
  sessionClient ??= buildClient();
  return sessionClient;
}

/** The store behind the shared client's cache (created with the client when none was set). */
export function getCacheStore(): CacheStore | undefined {
  if (sessionClient === undefined && !injected) getClient();
  return cacheStore;
}

/** Current settings (frozen: a change replaces them). */
export function getSettings(): Readonly<SessionSettings> {
  return settings;
}

/**
 * Changes settings and tells listeners (the task pane recalculates KAISHA formulas). Cached answers
 * are kept: the client keys them by a fingerprint of key and server (src/client/key-partition.ts),
 * so answers of another server or key never mix in.
 */
export function configureSession(partial: Partial<SessionSettings>): Readonly<SessionSettings> {
  const before = settings;
  const next: SessionSettings = { ...settings };
  for (const [k, v] of Object.entries(partial) as [keyof SessionSettings, unknown][]) {
    if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
  }
  settings = Object.freeze(next) as SessionSettings;
  if (sessionClient !== undefined && !injected) {
    // A configured copy shares cache, pacer, in-flight requests and counters with the old one.
    if (before.lang !== next.lang) sessionClient = sessionClient.withOptions({ lang: next.lang });
    const target = effectiveBaseUrl(next);
    if (effectiveBaseUrl(before) !== target) sessionClient.setBaseUrl(target);
  }
  const changed = (Object.keys(next) as (keyof SessionSettings)[]).some(
    (k) => before[k] !== next[k],
  );
  if (changed) for (const l of listeners) l(getSettings());
  return getSettings();
}

/** Where the key comes from (the task pane passes a reader of its local storage). */
export function setKeyProvider(provider: KeyProvider): void {
  keyProvider = provider;
  providerSet = true;
  providerCame?.();
  for (const l of listeners) l(getSettings());
}

/**
 * How long a call waits for the page's key provider (`awaitKeyProvider`): the pane's session reads
 * the remembered key from storage in moments; the bound only ends a wait for a page whose script
 * never registers one (the call then says the key is not set, as it did at once before). @unit ms
 */
const KEY_PROVIDER_WAIT_MS = 10_000;

/**
 * For a runtime page (functions/index.ts), whose other bundle registers the key provider after the
 * functions are registered (the pane's session, taskpane/pane-session.ts, once it has read the
 * remembered key; the preview page): a call reading the key until then waits for it, at most
 * `waitMs`. Excel calls a reopened workbook's cells as soon as the functions are registered; they
 * said "API key not set" (sending nothing, and nothing recalculated them) for answers in storage
 * (test/functions/key-before-pane.test.ts).
 */
export function awaitKeyProvider(waitMs = KEY_PROVIDER_WAIT_MS): void {
  if (providerSet) return;
  const came = new Promise<void>((resolve) => {
    const bound = setTimeout(resolve, waitMs);
    providerCame = () => {
      clearTimeout(bound);
      resolve();
    };
  });
  // Past the bound with none registered: no key, as before a page registered one.
  const waiting = (): Promise<string | undefined> =>
    came.then(() => (keyProvider === waiting ? undefined : keyProvider()));
  keyProvider = waiting;
}

/**
 * The add-in's cache store (functions/addin-cache.ts). An existing client continues as a
 * configured copy on the new store (same pacer and counters).
 */
export function setCacheStore(store: CacheStore | undefined): void {
  if (injected) return;
  cacheStore = store ?? new MemoryCacheStore();
  if (sessionClient !== undefined) sessionClient = sessionClient.withOptions({ cacheStore });
}

/**
 * Subscribes to settings and key changes; returns the unsubscribe function.
 *
 * @example const off = onSessionChange((s) => recalc()); off();
 */
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Tests and benchmarks: use this client (undefined restores the default) and, when given, the store
 * it was created with (so value previews can read it). Also resets settings to defaults + `partial`.
 *
 * @example
 * const store = new MemoryCacheStore();
 * setClientForTesting(createClient({ fetch, apiKey: DEMO_API_KEY, cacheStore: store }), { lang: "ja" }, store);
 * @internal Tests and the bench install their own client.
 */
export function setClientForTesting(
  testClient: Client | undefined,
  partial: Partial<SessionSettings> = {},
  store?: CacheStore,
): void {
  sessionClient = testClient;
  injected = testClient !== undefined;
  cacheStore = store;
  settings = Object.freeze({ ...DEFAULT_SETTINGS, ...partial });
}
