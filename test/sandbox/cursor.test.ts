// Opaque cursors: base64url JSON bound to the request's conditions (openapi.json cursor,
// listSecurityDisclosures).
import { ApiError } from "../../sandbox/lib/api-error";
import { conditionsHash, decodeCursor, encodeCursor, paginate } from "../../sandbox/lib/cursor";

describe("cursor encoding", () => {
  const hash = conditionsHash("listSecurities", { limit: 2, q: "a" });

  test("round-trips the offset for the same conditions", () => {
    expect(decodeCursor(encodeCursor(hash, 40), hash)).toBe(40);
  });

  test("the hash ignores key order but not values", () => {
    expect(conditionsHash("listSecurities", { q: "a", limit: 2 })).toBe(hash);
    expect(conditionsHash("listSecurities", { q: "b", limit: 2 })).not.toBe(hash);
    expect(conditionsHash("getPrices", { q: "a", limit: 2 })).not.toBe(hash);
  });

  test("cursor is URL-safe base64 of JSON", () => {
    const cursor = encodeCursor(hash, 3);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(cursor, "base64url").toString())).toEqual({ h: hash, o: 3 });
  });

  test.each([
    ["garbage", "not-a-cursor"],
    ["JSON of the wrong shape", Buffer.from('{"x":1}').toString("base64url")],
    ["negative offset", Buffer.from(JSON.stringify({ h: "x", o: -1 })).toString("base64url")],
    ["other conditions", encodeCursor(conditionsHash("listSecurities", { limit: 3 }), 3)],
  ])("%s -> 400 invalid on param cursor", (_name, cursor) => {
    expect.assertions(2);
    try {
      decodeCursor(cursor, hash);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).details).toEqual([
        {
          param: "cursor",
          reason: "invalid",
          expected: "next_cursor of the previous page, same conditions",
        },
      ]);
    }
  });

  test("paginate returns null next_cursor on the last page", () => {
    const items = [1, 2, 3, 4, 5];
    const first = paginate(items, 0, 2, hash);
    expect(first.page).toEqual([1, 2]);
    const next = decodeCursor(first.next_cursor ?? "", hash);
    expect(paginate(items, next, 2, hash).page).toEqual([3, 4]);
    expect(paginate(items, 4, 2, hash)).toEqual({ page: [5], next_cursor: null });
  });
});
