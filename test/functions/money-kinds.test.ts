// A function's money unit scales amounts of yen only (openapi.json x-money-kind): a figure per
// person the API counts in jpy (average_annual_salary) stays yen whatever unit is asked.
import * as KAISHA from "../../functions/index";
import { call } from "./call-by-name";
import { resetSession, useSandbox } from "./harness";

jest.setTimeout(120_000);
afterAll(resetSession);

test("FINANCIALS and FINANCIAL in 百万円: sales scaled, the average salary per person as the API sends it", async () => {
  const h = useSandbox();
  const body = await h.client.financials({ security_code: "7203", period: "annual", years: 30 });
  const last = body.periods[body.periods.length - 1]!;
  expect(typeof last.average_annual_salary).toBe("number");
  const grid = await call<unknown[][]>(KAISHA.FINANCIALS, "7203", {
    items: "sales,average_annual_salary",
    years: 1,
    unit: "million_jpy",
  });
  const values = grid.flat().filter((v) => typeof v === "number");
  expect(values).toEqual([(last.sales as number) / 1_000_000, last.average_annual_salary]);
  const cell = await call(KAISHA.FINANCIAL, "7203", {
    item: "average_annual_salary",
    unit: "million_jpy",
  });
  expect(cell).toBe(last.average_annual_salary);
});
