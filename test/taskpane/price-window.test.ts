// The Prices import's default window (the last year) and the requests a window costs.
import { defaultParams } from "../../taskpane/state/datasets";
import { defaultPriceWindow, priceImportCost, tokyoDay } from "../../taskpane/state/price-window";

const NOW = new Date("2026-11-24T03:00:00Z");

test("prices open on the last year up to the latest day; other datasets keep their defaults", () => {
  expect(defaultParams("prices", NOW)).toEqual({ code: "", from: "2025-11-24", to: "" });
  expect(defaultParams("jsf", NOW).period).toBe("1y");
});

test("the window follows the day in Tokyo, and 29 February a year on is the 28th", () => {
  // 23:30 UTC on the 23rd is already the 24th in Tokyo.
  expect(tokyoDay(new Date("2026-11-23T23:30:00Z"))).toBe("2026-11-24");
  expect(defaultPriceWindow(new Date("2028-02-29T01:00:00Z"))).toEqual({
    from: "2027-02-28",
    to: "",
  });
});

test("cost: a year is one request; every day since 2005 is a page of 500 rows per two years", () => {
  expect(priceImportCost("2025-11-24", "", NOW)).toBe(1);
  // 2005-01-01..2026-11-24: about 5,710 weekdays, 12 pages of 500.
  expect(priceImportCost("", "", NOW)).toBe(12);
  expect(priceImportCost("2020-01-01", "2021-12-31", NOW)).toBe(2);
  expect(priceImportCost("2024-13-01", "", NOW)).toBeUndefined();
  expect(priceImportCost("2024-03-01", "2024-01-01", NOW)).toBe(1);
});
