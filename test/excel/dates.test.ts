// ISO dates <-> Excel serials without time-zone drift.
import {
  isoInstantToJstSerial,
  isoToSerial,
  jstIsoDate,
  minusOneYear,
  serialToIso,
} from "../../src/excel/dates";

describe("Excel date serials", () => {
  test("known anchors", () => {
    expect(isoToSerial("1899-12-31")).toBe(1);
    expect(isoToSerial("1900-03-01")).toBe(61);
    expect(isoToSerial("2024-03-31")).toBe(45382);
    expect(serialToIso(45382)).toBe("2024-03-31");
  });
  test("round trip for every day of 2024 (leap year included)", () => {
    const start = isoToSerial("2024-01-01") as number;
    for (let i = 0; i < 366; i++) expect(isoToSerial(serialToIso(start + i))).toBe(start + i);
  });
  test("a time fraction is dropped when reading a serial", () => {
    expect(serialToIso(45382.99)).toBe("2024-03-31");
  });
  test("invalid dates give undefined", () => {
    expect(isoToSerial("2023-02-29")).toBeUndefined();
    expect(isoToSerial("2024/03/31")).toBeUndefined();
  });
  test("a UTC instant becomes the JST wall-clock serial", () => {
    // 2024-05-10T06:00Z is 15:00 JST: 0.625 of a day.
    expect(isoInstantToJstSerial("2024-05-10T06:00:00Z")).toBeCloseTo(45422.625, 9);
    // 20:00 UTC is already the next JST day.
    expect(Math.floor(isoInstantToJstSerial("2024-05-10T20:00:00Z") as number)).toBe(45423);
  });
  test("today in Japan", () => {
    expect(jstIsoDate(Date.parse("2026-11-20T16:00:00Z"))).toBe("2026-11-21");
  });
  test("year arithmetic", () => {
    expect(minusOneYear("2024-02-29")).toBe("2023-02-28");
    expect(minusOneYear("2026-11-20")).toBe("2025-11-20");
  });
});
