// Authentication rules of the sandbox (openapi.json bearerAuth): bearer key, exactly one space,
// known keys only.
import { DEMO_API_KEY, isKeyShaped, KEY_PREFIX } from "../../sandbox/demo-key";
import { get, makeSandbox } from "./helpers";

describe("sandbox authentication (openapi.json bearerAuth)", () => {
  const sandbox = makeSandbox();

  test("demo key: 52 characters with a 9-character prefix ending in key_", () => {
    expect(DEMO_API_KEY).toHaveLength(52);
    expect(KEY_PREFIX).toHaveLength(9);
    expect(KEY_PREFIX.endsWith("key_")).toBe(true);
    expect(DEMO_API_KEY.startsWith(KEY_PREFIX)).toBe(true);
    expect(isKeyShaped(DEMO_API_KEY)).toBe(true);
  });

  test("isKeyShaped rejects wrong length, wrong prefix and whitespace", () => {
    expect(isKeyShaped(DEMO_API_KEY.slice(0, 51))).toBe(false);
    expect(isKeyShaped(`${DEMO_API_KEY}x`)).toBe(false);
    expect(isKeyShaped(`abcdefgh_${DEMO_API_KEY.slice(9)}`)).toBe(false);
    expect(isKeyShaped(`${DEMO_API_KEY.slice(0, 20)} ${DEMO_API_KEY.slice(21)}`)).toBe(false);
  });

  test("valid Bearer key -> 200", async () => {
    const answer = await get(sandbox, "/v1/usage");
    expect(answer.status).toBe(200);
  });

  test.each([
    ["no Authorization header", null],
    ["key alone without Bearer prefix", DEMO_API_KEY],
    ["lower-case bearer", `bearer ${DEMO_API_KEY}`],
    ["two spaces after Bearer", `Bearer  ${DEMO_API_KEY}`],
    ["tab instead of space", `Bearer\t${DEMO_API_KEY}`],
    ["space inside the key", `Bearer ${DEMO_API_KEY.slice(0, 10)} ${DEMO_API_KEY.slice(10)}`],
    ["empty key", "Bearer "],
    ["Bearer without key", "Bearer"],
    ["unknown key of the right shape", `Bearer ${KEY_PREFIX}${"x".repeat(43)}`],
    ["Basic scheme", `Basic ${Buffer.from(`user:${DEMO_API_KEY}`).toString("base64")}`],
  ])("%s -> 401 unauthorized in the common error shape", async (_name, authorization) => {
    const answer = await get(sandbox, "/v1/financials?security_code=7203", { authorization });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("unauthorized");
    expect(typeof answer.body.error.message).toBe("string");
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  test("401 messages never echo the key that was sent", async () => {
    const wrong = `${KEY_PREFIX}${"Q".repeat(43)}`;
    const answer = await get(sandbox, "/v1/usage", { key: wrong });
    expect(answer.status).toBe(401);
    expect(JSON.stringify(answer.body)).not.toContain(wrong);
  });

  test("only configured keys are accepted when apiKeys is given", async () => {
    const custom = `${KEY_PREFIX}${"A".repeat(43)}`;
    const own = makeSandbox({ apiKeys: [custom] });
    expect((await get(own, "/v1/usage", { key: custom })).status).toBe(200);
    expect((await get(own, "/v1/usage")).status).toBe(401);
  });

  test("unauthenticated requests are rejected before parameter validation", async () => {
    const answer = await get(sandbox, "/v1/financials?years=abc", { authorization: null });
    expect(answer.status).toBe(401);
  });
});
