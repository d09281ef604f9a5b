// Gzipped sizes of the built functions and task pane bundles (dist/), building them when missing.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

interface BundleSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  /** "built" when dist/ had (or a build produced) JavaScript; otherwise why not. */
  status: "built" | "not built";
  note: string;
  functions: BundleSize[];
  taskpane: BundleSize[];
  /** Files the build copies rather than compiles (Office.js under dist/assets/): listed, not ours. */
  copied: BundleSize[];
  /**
   * Every script the shared-runtime page (dist/taskpane.html) loads by itself, in order: what
   * the runtime evaluates before the functions register. Office.js is listed but not ours.
   */
  page: { file: string; gzipBytes: number | undefined; officeJs: boolean }[];
}

/** Runtime page target: our JavaScript before the functions register, gzipped (README). */
export const RUNTIME_PAGE_GZIP_TARGET_BYTES = 60 * 1024;

/** Scripts a built HTML page loads (src attributes, in order). */
function pageScripts(dist: string, page: string): BundleReport["page"] {
  const html = join(dist, page);
  if (!existsSync(html)) return [];
  const text = readFileSync(html, "utf8");
  const out: BundleReport["page"] = [];
  // Minified HTML leaves attribute values unquoted (src=functions.js?hash).
  for (const m of text.matchAll(/<script\b[^>]*\bsrc=(?:"([^"]+)"|'([^']+)'|([^\s>]+))[^>]*>/g)) {
    const raw = (m[1] ?? m[2] ?? m[3] ?? "") as string;
    const src = raw.replace(/^\.?\//, "").split("?")[0] as string;
    const local = join(dist, src);
    const officeJs = /office(\.debug)?\.js$/i.test(src) || /^https?:/.test(src);
    out.push({
      file: src,
      gzipBytes: existsSync(local)
        ? gzipSync(readFileSync(local), { level: 9 }).byteLength
        : undefined,
      officeJs,
    });
  }
  return out;
}

/** Newest modification time (ms) of the files under `dir`, node_modules excluded. */
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules") continue;
    const full = join(dir, name);
    const stat = statSync(full);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(full) : stat.mtimeMs);
  }
  return newest;
}

/**
 * Measures dist/*.js. When dist/ has no JavaScript, or its functions bundle is older than the
 * sources it is built from, it runs `npx webpack --mode production` once; if that fails the
 * report says "not built" with the reason.
 */
export function measureBundles(root: string): BundleReport {
  const dist = join(root, "dist");
  let note = "dist/ already present and newer than its sources";
  const built = join(dist, "functions.js");
  const sources = Math.max(
    ...["src", "functions", "taskpane"].map((d) => newestMtime(join(root, d))),
  );
  const stale = !existsSync(built) || statSync(built).mtimeMs < sources;
  if (listJs(dist).length === 0 || stale) {
    if (!existsSync(join(root, "webpack.config.js"))) {
      return {
        status: "not built",
        note: "no webpack.config.js yet",
        functions: [],
        taskpane: [],
        copied: [],
        page: [],
      };
    }
    try {
      execFileSync("npx", ["webpack", "--mode", "production"], {
        cwd: root,
        stdio: "pipe",
        timeout: 900_000,
      });
      note = "built now with `npx webpack --mode production`";
    } catch (error) {
      const text =
        error instanceof Error ? error.message.split("\n").slice(0, 3).join(" ") : String(error);
      return {
        status: "not built",
        note: `webpack failed: ${text}`,
        functions: [],
        taskpane: [],
        copied: [],
        page: [],
      };
    }
  }
  const files = listJs(dist).map((file) => {
    const content = readFileSync(join(dist, file));
    return {
      file,
      bytes: content.byteLength,
      gzipBytes: gzipSync(content, { level: 9 }).byteLength,
    };
  });
  if (files.length === 0) {
    return {
      status: "not built",
      note: "the build wrote no JavaScript",
      functions: [],
      taskpane: [],
      copied: [],
      page: [],
    };
  }
  return {
    status: "built",
    note,
    functions: files.filter((f) => /^functions[^/]*\.js$/.test(f.file)),
    taskpane: files.filter((f) => !f.file.includes("/") && !/^functions[^/]*\.js$/.test(f.file)),
    copied: files.filter((f) => f.file.includes("/")),
    page: pageScripts(dist, "taskpane.html"),
  };
}

/** JavaScript files under dist/ (relative paths), source maps excluded. */
function listJs(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const rel = prefix === "" ? name : `${prefix}/${name}`;
    if (statSync(full).isDirectory()) out.push(...listJs(full, rel));
    else if (name.endsWith(".js")) out.push(rel);
  }
  return out.sort();
}
