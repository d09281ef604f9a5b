// Every Excel API member taskpane/ uses, with its ExcelApi set read from office-js's own declarations
// ("[Api set: ExcelApi 1.12]"): within manifest.xml's declared set, or guarded by excelApiSupported.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { compareVersions, MANIFEST_EXCEL_API } from "../../taskpane/excel/requirements";

const ROOT = path.join(__dirname, "..", "..");

/** Every .ts/.tsx file under taskpane/ (the pane's only Excel code lives in taskpane/excel/). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

interface Use {
  member: string;
  set: string;
  file: string;
  line: number;
  guarded: string | undefined;
}

/** The `[Api set: ExcelApi x.y]` of a declaration's JSDoc, if it has one. */
function apiSetOf(decl: ts.Declaration): string | undefined {
  const text = decl.getSourceFile().text.slice(decl.getFullStart(), decl.getStart());
  return /\[Api set: ExcelApi (\d+\.\d+)/.exec(text)?.[1];
}

/** The versions passed to excelApiSupported("x.y") in the top-level statement around a node. */
function guardsAround(node: ts.Node): string[] {
  let top: ts.Node = node;
  while (top.parent && !ts.isSourceFile(top.parent)) top = top.parent;
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isCallExpression(n) &&
      ts.isIdentifier(n.expression) &&
      n.expression.text === "excelApiSupported" &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    )
      found.push(n.arguments[0].text);
    ts.forEachChild(n, visit);
  };
  visit(top);
  return found;
}

let uses: Use[];

beforeAll(() => {
  const files = sources(path.join(ROOT, "taskpane"));
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const program = ts.createProgram(files, { ...config?.options, noEmit: true });
  const checker = program.getTypeChecker();
  uses = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const symbol = checker.getSymbolAtLocation(node.name);
        for (const decl of symbol?.declarations ?? []) {
          if (!decl.getSourceFile().fileName.includes("@types/office-js")) continue;
          const set = apiSetOf(decl);
          if (!set) continue;
          const owner = (decl.parent as ts.ClassDeclaration | undefined)?.name?.getText() ?? "?";
          const pos = source.getLineAndCharacterOfPosition(node.name.getStart());
          const guard = guardsAround(node).find((v) => compareVersions(v, set) >= 0);
          uses.push({
            member: `${owner}.${node.name.text}`,
            set,
            file: path.relative(ROOT, file),
            line: pos.line + 1,
            guarded: guard,
          });
          break;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}, 60_000);

test("manifest.xml declares the ExcelApi set the pane is written against", () => {
  const manifest = fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8");
  expect(manifest).toContain(`<Set Name="ExcelApi" MinVersion="${MANIFEST_EXCEL_API}"/>`);
});

test("the scan finds the pane's Excel calls (a scan that finds nothing proves nothing)", () => {
  const members = new Set(uses.map((u) => u.member));
  expect(members.size).toBeGreaterThan(30);
  for (const m of ["Range.values", "Range.getSpillingToRangeOrNullObject", "ChartSeries.axisGroup"])
    expect(members.has(m)).toBe(true);
  expect(
    uses
      .filter((u) => !u.file.startsWith(path.join("taskpane", "excel")))
      .map((u) => `${u.file}:${u.line} ${u.member}`),
  ).toEqual([]);
});

/** The committed table of every Excel API member the pane uses (taskpane/excel/EXCEL-API.md). */
const TABLE_FILE = path.join(ROOT, "taskpane", "excel", "EXCEL-API.md");

function tableText(): string {
  const rows = new Map<string, { set: string; files: Set<string>; guarded: boolean }>();
  for (const u of uses) {
    const row = rows.get(u.member) ?? { set: u.set, files: new Set(), guarded: true };
    row.files.add(path.basename(u.file));
    row.guarded &&= compareVersions(u.set, MANIFEST_EXCEL_API) <= 0 || u.guarded !== undefined;
    rows.set(u.member, row);
  }
  const lines = [...rows.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([member, r]) => {
      const how =
        compareVersions(r.set, MANIFEST_EXCEL_API) <= 0
          ? "manifest"
          : r.guarded
            ? "excelApiSupported"
            : "**UNGUARDED**";
      return `| \`${member}\` | ${r.set} | ${how} | ${[...r.files].sort().join(", ")} |`;
    });
  return [
    "# Excel API members used by the task pane",
    "",
    `Generated by test/taskpane/requirement-sets.test.ts from office-js's declarations ("[Api set: ExcelApi x.y]");`,
    `run it with UPDATE_EXCEL_API_TABLE=1 to rewrite this file. manifest.xml declares ExcelApi ${MANIFEST_EXCEL_API}:`,
    "members up to it need no check; newer ones are guarded by `excelApiSupported` (taskpane/excel/requirements.ts).",
    "",
    "| Member | ExcelApi | Available by | Used in |",
    "| --- | --- | --- | --- |",
    ...lines,
    "",
  ].join("\n");
}

test("taskpane/excel/EXCEL-API.md lists each Excel API member the pane uses with its set", () => {
  const text = tableText();
  if (process.env["UPDATE_EXCEL_API_TABLE"] === "1") fs.writeFileSync(TABLE_FILE, text);
  expect(fs.readFileSync(TABLE_FILE, "utf8")).toBe(text);
});

test("every Excel API newer than the manifest's set is guarded by excelApiSupported", () => {
  const unguarded = uses
    .filter((u) => compareVersions(u.set, MANIFEST_EXCEL_API) > 0 && !u.guarded)
    .map((u) => `${u.file}:${u.line} ${u.member} needs ExcelApi ${u.set}`);
  expect(unguarded).toEqual([]);
});
