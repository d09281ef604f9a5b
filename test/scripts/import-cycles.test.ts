// No import cycles in the product's folders: every static, type-only and dynamic import counts (as
// `madge --circular` counts them), so a module's place in the layers (ARCHITECTURE.md "Import rules") holds.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["src", "functions", "taskpane", "standin", "bench"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") out.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** The project file a relative specifier names (as TypeScript resolves it), or undefined. */
function resolve(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const tried = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")];
  return tried.find((file) => known.has(file));
}

/** Each file's imports: `import`, `export … from`, `import type` and `import()` alike. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles
      .map((f) => resolve(file, f.fileName, known))
      .filter((t): t is string => t !== undefined && t !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function cycleName(component: readonly string[]): string {
  return component.map((f) => path.relative(ROOT, f).split(path.sep).join("/")).join(" > ");
}

test("the checker finds a cycle through a type-only and a dynamic import, and none in a chain", () => {
  const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "cycles-"));
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  write("a.ts", 'import type { B } from "./b";\nexport type A = B;');
  write("b.ts", 'export type B = number;\nexport const load = () => import("./c");');
  write("c.ts", 'import { x } from "./a";\nexport const y = x;');
  write("d.ts", 'import { y } from "./c";\nexport const z = y;');
  const graph = importGraph(["a.ts", "b.ts", "c.ts", "d.ts"].map((f) => path.join(dir, f)));
  expect(cycles(graph).map((c) => c.map((f) => path.basename(f)))).toEqual([
    ["a.ts", "b.ts", "c.ts"],
  ]);
  fs.rmSync(dir, { recursive: true });
});

test("no import cycle in src, functions, taskpane, standin or bench", () => {
  const files = FOLDERS.flatMap((d) => sourceFiles(path.join(ROOT, d)));
  expect(cycles(importGraph(files)).map(cycleName)).toEqual([]);
});

test("the client imports nothing of the domain: its rules are functions over the client's door", () => {
  const files = sourceFiles(path.join(ROOT, "src"));
  const domain = path.join(ROOT, "src", "domain");
  const client = path.join(ROOT, "src", "client");
  const reaching = [...importGraph(files)]
    .filter(([file]) => file.startsWith(client))
    .flatMap(([file, targets]) =>
      targets.filter((t) => t.startsWith(domain)).map((t) => cycleName([file, t])),
    );
  expect(reaching).toEqual([]);
});
