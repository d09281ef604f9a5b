// The pane says when the key sends nothing: the daily limit with when sending resumes, a refused key asking for a new one.

import { RevalidationView } from "../../taskpane/components/revalidation-view";
import { ConnectionSection } from "../../taskpane/components/connection-section";
import { createClient, localTime } from "../../src/client";
import type { PaneClient } from "../../taskpane/state/pane-client";
import { revalidationLine, EMPTY_REVALIDATION } from "../../taskpane/state/revalidation-model";
import { translator } from "../../taskpane/i18n/messages";
import { TEST_KEY, annualBody, apiError, recordingFetch, reply } from "../client/helpers";
import { renderInPane } from "./render-in-pane";

/** Friday 2026-11-20 18:00 JST; sending resumes at the next JST midnight (15:00 UTC). */
const T0 = Date.parse("2026-11-20T09:00:00Z");
const JST_MIDNIGHT = Date.parse("2026-11-20T15:00:00Z");

/** A client whose key met `answer` once (the daily limit or a refused key). */
async function clientAfter(answer: "daily" | "refused" | "ok") {
  const key = { current: TEST_KEY };
  const rec = recordingFetch(() =>
    answer === "daily"
      ? apiError(429, "daily_limit_exceeded", "Daily request limit of 5 reached.")
      : answer === "refused"
        ? apiError(401, "unauthorized", "Invalid API key")
        : reply(200, annualBody(5)),
  );
  const client = createClient({
    apiKey: () => key.current,
    fetch: rec.fetch,
    ratePerMinute: 0,
    maxRetries: 0,
    now: () => T0,
  });
  await client
    .financials({ security_code: "7203", period: "annual", years: 5 })
    .catch(() => undefined);
  return { client: client as unknown as PaneClient, key };
}

test("the daily limit: the pane says nothing is sent until the next JST midnight, in local time, in both languages", async () => {
  const { client } = await clientAfter("daily");
  const en = renderInPane(<RevalidationView />, client, "en");
  expect(en).toContain('data-reason="daily_limit"');
  expect(client.sendState?.()).toEqual({ reason: "daily_limit", resumesAt: JST_MIDNIGHT });
  // In the user's local terms ("Fri 20 Nov, 15:00" where the clock is UTC).
  expect(en).toContain(
    `Nothing is sent until ${localTime(JST_MIDNIGHT, "en")} (midnight in Japan)`,
  );
  const ja = renderInPane(<RevalidationView />, client, "ja");
  expect(ja).toContain(`${localTime(JST_MIDNIGHT, "ja")}（日本時間0時）まで何も送信しません`);
});

test("a refused key: the pane and the connection section ask for a new key; a new key clears it", async () => {
  const { client, key } = await clientAfter("refused");
  expect(renderInPane(<RevalidationView />, client, "en")).toContain(
    "Enter a new key under Connection.",
  );
  const connection = renderInPane(<ConnectionSection />, client, "ja");
  expect(connection).toContain('data-reason="key_refused"');
  expect(connection).toContain("「接続」で新しいキーを入力してください。");
  key.current = `${TEST_KEY.slice(0, -1)}Z`;
  expect(renderInPane(<RevalidationView />, client, "en")).not.toContain("send-hold");
});

test("a key that sends: no notice", async () => {
  const { client } = await clientAfter("ok");
  expect(renderInPane(<RevalidationView />, client, "en")).not.toContain("send-hold");
  expect(renderInPane(<ConnectionSection />, client, "en")).not.toContain("send-hold");
});

test("the background's line says why it waits: the daily limit, a refused key", () => {
  const t = translator("en");
  const line = (paused: "limit" | "key") => {
    const l = revalidationLine({ ...EMPTY_REVALIDATION, companies: 3, paused });
    return t(l.key, l.vars);
  };
  expect(line("limit")).toBe(
    "The API’s daily request limit is reached: 3 companies wait until sending resumes.",
  );
  expect(line("key")).toBe("The API refused the key: 3 companies wait for a new key.");
});
