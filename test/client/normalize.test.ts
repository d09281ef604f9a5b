// Normalisation of Excel inputs to API parameters: codes, months and JST dates without time-zone drift.

import { ValidationError } from "../../src/client/errors";
import { normalizeCode, normalizeCompany, normalizeDate } from "../../src/client/normalize";
import { todayJst } from "../../src/util/normalize";

describe("normalizeCode / normalizeCompany", () => {
  test.each<[unknown, string]>([
    [7203, "7203"],
    ["7203", "7203"],
    ["  7203 ", "7203"],
    ["130a", "130A"],
    ["７２０３", "7203"],
    ["e02144", "E02144"],
  ])("normalizeCode(%p) -> %p", (input, expected) => {
    expect(normalizeCode(input)).toBe(expected);
  });

  test.each<[unknown, object]>([
    [7203, { security_code: "7203" }],
    ["130A", { security_code: "130A" }],
    ["E02144", { edinet_code: "E02144" }],
    [" g12345 ", { edinet_code: "G12345" }],
  ])("normalizeCompany(%p) -> %p", (input, expected) => {
    expect(normalizeCompany(input)).toEqual(expected);
  });

  test.each<unknown>(["72", "E123456", "toyota!", 7203.5, ""])(
    "normalizeCompany rejects %p with a ValidationError",
    (input) => {
      expect(() => normalizeCompany(input)).toThrow(ValidationError);
    },
  );

  test("a blank company is reported as missing", () => {
    expect.assertions(2);
    try {
      normalizeCompany("  ");
    } catch (e) {
      expect((e as ValidationError).details[0]?.reason).toBe("missing");
      expect((e as ValidationError).details[0]?.param).toBe("company");
    }
  });
});

describe("normalizeDate", () => {
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
    expect(normalizeDate(input)).toBe(expected);
  });

  test.each<unknown>(["2024-02-30", "2023/2/29", "yesterday", -1, 0, 2024, "2024"])(
    "rejects %p",
    (input) => {
      expect(() => normalizeDate(input)).toThrow(ValidationError);
    },
  );

  test("accepts a leap day", () => {
    expect(normalizeDate("2024/2/29")).toBe("2024-02-29");
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
        expect(normalizeDate(45382)).toBe("2024-03-31");
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
      expect(normalizeDate(new Date(2024, 2, 31))).toBe("2024-03-31");
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
