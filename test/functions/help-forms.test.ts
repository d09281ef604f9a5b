// The help page and the function descriptions list every accepted period and company form.
import * as fs from "node:fs";
import * as path from "node:path";

const help = fs.readFileSync(path.join(__dirname, "../../assets/help.html"), "utf8");
const index = fs.readFileSync(path.join(__dirname, "../../functions/index.ts"), "utf8");
const ja = JSON.parse(
  fs.readFileSync(path.join(__dirname, "../../scripts/functions-ja-table.json"), "utf8"),
) as Record<string, { parameters: Record<string, string> }>;

const PERIOD_FORMS = [
  "FY0",
  "FY-1",
  "LTM",
  "LTM-1",
  "FQ0",
  "FQ-2",
  "FH0",
  "2024Q2",
  "2024H1",
  "2024/03",
  "202403",
  "2024年3月期",
  "2024年3月期第2四半期",
  "令和6年3月期",
  "FY2024",
];
const COMPANY_FORMS = ["7203", "130A", "72030", "XTKS:7203", "7203.T", "7203 JP", "E02144"];

describe("the accepted forms are documented", () => {
  test.each(PERIOD_FORMS)("period form %s: help page, FINANCIAL's description (en, ja)", (form) => {
    expect(help).toContain(form);
    const fiscal = /@param \[fiscal_period\] (.*)/.exec(index)?.[1] ?? "";
    expect(fiscal).toContain(form);
    expect(ja.FINANCIAL?.parameters.fiscal_period).toContain(form);
  });
  test.each(COMPANY_FORMS)("company form %s: help page and every company description", (form) => {
    expect(help).toContain(form);
    const described = [...index.matchAll(/@param company (.*)/g)].map((m) => m[1] ?? "");
    expect(described).toHaveLength(13); // every function taking a company
    for (const d of described) expect(d).toContain(form);
    for (const entry of Object.values(ja))
      if (entry.parameters?.company !== undefined) expect(entry.parameters.company).toContain(form);
  });
  test("the number ranges and the order default are on the help page", () => {
    for (const range of ["1900", "18264", "73415", "190001", "210012", "19000101"])
      expect(help).toContain(range);
    expect(help).toMatch(/default <code>asc<\/code> \(oldest first\)/);
    expect(help).toMatch(/既定は <code>asc<\/code>（古い順）/);
  });
});
