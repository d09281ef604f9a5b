// ARCHITECTURE.md stays a page the next engineer reads in one sitting (at most 300 lines) and names
// only files the project holds, so a move or a rename that forgets the map fails here.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
const DOC = fs.readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
/** Files the map names that a build writes rather than the repository holding them. */
const BUILT = new Set(["kaisha-settings.js"]);

/** The file names the map quotes in backticks (`cells/define-cell.ts`, `openapi.json`). */
function quotedFiles(text: string): string[] {
  const names = text.match(/`[A-Za-z0-9_./-]+\.(?:ts|tsx|js|md|json)`/g) ?? [];
  return [...new Set(names.map((n) => n.slice(1, -1)))];
}

describe("ARCHITECTURE.md", () => {
  test("is at most 300 lines", () => {
    expect(DOC.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  test("every file it names exists (a quoted path's tail matches a tracked file)", () => {
    const tracked = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n");
    const missing = quotedFiles(DOC).filter(
      (name) => !BUILT.has(name) && !tracked.some((f) => f === name || f.endsWith(`/${name}`)),
    );
    expect(missing).toEqual([]);
  });
});
