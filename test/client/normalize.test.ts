// Normalisation of Excel inputs to API parameters: security and EDINET codes, refused with a ValidationError.

import { ValidationError } from "../../src/client/errors";
import { normalizeCode, normalizeCompany } from "../../src/client/normalize";

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
