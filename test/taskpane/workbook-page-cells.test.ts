// The workbook page's grid shows a stand-in cell as Excel shows it: an error by its code (#VALUE!,
// #N/A), never by the type name valuesAsJson gives it (Value, NotAvailable), and the pane's help link
// opens the help page in the pane's language at the section in view.
import { standInCellText } from "../../standin/cell-display";
import { toStandInCell } from "../../standin/standin-engine";
import { errorCell } from "../../standin/cell-display";
import { helpUrl } from "../../taskpane/components/help-link";

test("an error cell shows its code, whatever the stand-in keeps beside it", () => {
  for (const code of ["#VALUE!", "#N/A", "#NAME?", "#REF!", "#DIV/0!", "#SPILL!", "#BUSY!"]) {
    // What the engine stores for an error the function threw (excel-standin.js read()).
    const stored = toStandInCell(errorCell(code, "a message"));
    expect(stored.error).not.toBe(code);
    expect(standInCellText(stored)).toEqual({ text: code, kind: "error" });
  }
  // A cell holding only the type name still shows the code.
  expect(standInCellText({ value: "", error: "NotAvailable" }).text).toBe("#N/A");
  expect(standInCellText({ value: "", error: "Value" }).text).toBe("#VALUE!");
});

test("values show as Excel formats them", () => {
  expect(standInCellText({ value: 0.0368, numberFormat: "0.00%" }).text).toBe("3.68%");
  expect(standInCellText({ value: true, numberFormat: "General" }).text).toBe("TRUE");
  expect(standInCellText({ value: "", numberFormat: "General" }).kind).toBe("empty");
  expect(standInCellText({ value: "トヨタ", numberFormat: "General" })).toEqual({
    text: "トヨタ",
    kind: "text",
  });
});

test("the help link: help.html next to the pane, in the pane's language, at the section in view", () => {
  const page = "https://localhost:3000/taskpane.html?x=1";
  expect(helpUrl("ja", "builder", page)).toBe(
    "https://localhost:3000/assets/help.html?lang=ja#builder-ja",
  );
  expect(helpUrl("en", "company", page)).toBe(
    "https://localhost:3000/assets/help.html?lang=en#sheets",
  );
  expect(helpUrl("ja", "unknown", page)).toBe("https://localhost:3000/assets/help.html?lang=ja");
  expect(helpUrl("en", "refresh", undefined)).toBe("assets/help.html?lang=en#refresh");
});

test("every anchor the help link uses exists on the help page", () => {
  const html = require("node:fs").readFileSync(
    `${__dirname}/../../assets/help.html`,
    "utf8",
  ) as string;
  for (const lang of ["ja", "en"] as const) {
    for (const section of ["connection", "screening", "import", "refresh", "builder", "company"]) {
      const hash = helpUrl(lang, section, "https://x.test/taskpane.html").split("#")[1];
      expect(html).toContain(`id="${hash}"`);
    }
  }
});
