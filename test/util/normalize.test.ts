// Text and calendar days for every layer (src/util/normalize.ts): cell dates read as JST days without
// time-zone drift, today in Japan.

import { dayOf, todayJst } from "../../src/util/normalize";

describe("dayOf", () => {
  test.each<[unknown, string]>([
    [45382, "2024-03-31"],
    [45383.9999, "2024-04-01"],
    ["2024/3/1", "2024-03-01"],
    ["2024-03-01", "2024-03-01"],
    ["20240301", "2024-03-01"],
    ["2024年3月1日", "2024-03-01"],
    ["45382", "2024-03-31"],
    ["2024-03-01T00:00:00Z", "2024-03-01"],
    [new Date(Date.UTC(2024, 2, 31, 15, 0)), "2024-04-01"],
    [new Date(Date.UTC(2024, 2, 31, 14, 59)), "2024-03-31"],
  ])("%p -> %p", (input, expected) => {
    expect(dayOf(input)).toBe(expected);
  });

  test.each<unknown>(["2024-02-30", "2023/2/29", "yesterday", -1, 0, 2024, "2024"])(
    "rejects %p",
    (input) => {
      expect(dayOf(input)).toBeUndefined();
    },
  );

  test("accepts a leap day", () => {
    expect(dayOf("2024/2/29")).toBe("2024-02-29");
  });

  test("serial 45382 is 2024-03-31 in every time zone", () => {
    const saved = process.env.TZ;
    try {
      for (const tz of [
        "Asia/Tokyo",
        "America/Los_Angeles",
        "Pacific/Kiritimati",
        "Pacific/Pago_Pago",
        "UTC",
      ]) {
        process.env.TZ = tz;
        expect(dayOf(45382)).toBe("2024-03-31");
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  test("a local-midnight Date made in Los Angeles is still that day in Japan", () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = "America/Los_Angeles";
      expect(dayOf(new Date(2024, 2, 31))).toBe("2024-03-31");
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  test("todayJst is the Japanese calendar day", () => {
    expect(todayJst(Date.UTC(2026, 0, 1, 14, 59))).toBe("2026-01-01");
    expect(todayJst(Date.UTC(2026, 0, 1, 15, 0))).toBe("2026-01-02");
  });
});
