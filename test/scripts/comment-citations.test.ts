// The comment-citations lint rule (scripts/eslint/comment-citations.js): issue numbers and documents
// the project lacks are reported in every kind of comment; public references with numbers are not.
// The repository's markdown docs follow the same rule (ESLint reads no markdown).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { RuleTester, type Rule } from "eslint";
import tseslint from "typescript-eslint";

const rule = require("../../scripts/eslint/comment-citations.js") as Rule.RuleModule & {
  badCitation(text: string): { messageId: string; found: string } | undefined;
};
const ROOT = path.resolve(__dirname, "../..");

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run("comment-citations", rule, {
  valid: [
    "// openapi.json getFinancials: at most 30 years (test/client/validate.test.ts).\nconst a = 1;",
    '/** The key is a secret (README "Using a real key"; key-partition.ts). */\nconst a = 1;',
    "// Excel drops the message of other error codes (office-js#1234, Excel-Custom-Functions#368).\nconst a = 1;",
    "// Same as OfficeDev/office-js#710 describes.\nconst a = 1;",
    "// https://github.com/OfficeDev/office-js/issues/4120 (the host's tooltip).\nconst a = 1;",
    "// See office-js issue 3920 for the host's behaviour.\nconst a = 1;",
    "// A string is not a comment.\nconst s = 'issue 18 REFERENCE.md';",
    "// The issue's table: no number, nothing cited.\nconst REFERENCE_SECURITY = '7203';",
    "// Tissues 4 sale is not a citation.\nconst a = 1;",
  ],
  invalid: [
    {
      code: "// issue 18: answers belong to the key\nconst a = 1;",
      errors: [{ messageId: "issueNumber" }],
    },
    {
      code: "// Issue 13: refused with its name.\nconst a = 1;",
      errors: [{ messageId: "issueNumber" }],
    },
    { code: "/* as issues 13 and 18 ask */\nconst a = 1;", errors: [{ messageId: "issueNumber" }] },
    {
      code: "/**\n * The gate (issue #20).\n */\nconst a = 1;",
      errors: [{ messageId: "issueNumber" }],
    },
    {
      code: "// office-js#1234 shows it, as issue 9 asks.\nconst a = 1;",
      errors: [{ messageId: "issueNumber", data: { found: "issue 9" } }],
    },
    {
      code: "// (REFERENCE: only these two show one)\nconst a = 1;",
      errors: [{ messageId: "missingDocument" }],
    },
    { code: "// See REFERENCE.md.\nconst a = 1;", errors: [{ messageId: "missingDocument" }] },
    { code: "// HOUSE_STYLE says so.\nconst a = 1;", errors: [{ messageId: "missingDocument" }] },
    { code: "// DEVELOPERS.md, step 3.\nconst a = 1;", errors: [{ messageId: "missingDocument" }] },
    {
      code: "// The spec (listed-company-data-service.md) says 30 years.\nconst a = 1;",
      errors: [{ messageId: "missingDocument" }],
    },
    {
      code: "const x = <div>{/* issue 19: every tab */}</div>;",
      languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
      errors: [{ messageId: "issueNumber" }],
    },
  ],
});

test("the markdown docs cite no issue number and no document the project lacks", () => {
  const docs = execFileSync("git", ["ls-files", "*.md"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "" && fs.existsSync(path.join(ROOT, f)));
  expect(docs).toContain("ARCHITECTURE.md");
  const found = docs.flatMap((f) =>
    fs
      .readFileSync(path.join(ROOT, f), "utf8")
      .split("\n")
      .flatMap((line, i) => {
        const bad = rule.badCitation(line);
        return bad ? [`${f}:${i + 1}: ${bad.found}`] : [];
      }),
  );
  expect(found).toEqual([]);
});
