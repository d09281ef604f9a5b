// The built add-in (the e2e build made by globalSetup, production mode) and the webpack settings that
// differ between production, npm start and the e2e build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import webpack from "webpack";
import { RUNTIME_PAGE_GZIP_TARGET_BYTES } from "../../bench/bundle-sizes";
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { pageSettingsScript, PRODUCTION_PAGE_SETTINGS } from "../../scripts/page-settings";
import { E2E_BUILD_BASE_URL, E2E_DIST, ROOT } from "./paths";

const OFFICE_JS_CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
/**
 * The budget of the add-in's own JavaScript the runtime page evaluates before functions register
 * (60 KB gzip), measured as bench/bundle-sizes.ts measures it (gzip level 9).
 */
const RUNTIME_PAGE_BUDGET_KB = RUNTIME_PAGE_GZIP_TARGET_BYTES / 1024;

type ConfigFactory = (env: unknown, argv: { mode: string }) => webpack.Configuration;
const factory = require(path.join(ROOT, "webpack.config.js")) as ConfigFactory;

function read(file: string): string {
  return fs.readFileSync(path.join(E2E_DIST, file), "utf8");
}

/** Builds the config with some environment variables set (and the others removed). */
function configWith(env: Record<string, string>, mode = "production"): webpack.Configuration {
  const names = [
    "KAISHA_DEFAULT_BASE_URL",
    "KAISHA_DEMO_KEY",
    "ADDIN_PRODUCTION_URL",
    "KAISHA_OFFICE_JS",
    "KAISHA_BUILD_REPORT",
    "KAISHA_PREVIEW",
    "KAISHA_CONNECT_SRC",
  ];
  const saved = names.map((n) => [n, process.env[n]] as const);
  for (const n of names) delete process.env[n];
  Object.assign(process.env, env);
  try {
    return factory({}, { mode });
  } finally {
    for (const [n, v] of saved) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
  }
}

function definePlugin(config: webpack.Configuration): webpack.DefinePlugin {
  const plugin = config.plugins?.find((p) => p?.constructor?.name === "DefinePlugin");
  if (!plugin) throw new Error("no DefinePlugin");
  return plugin as webpack.DefinePlugin;
}

function definitions(config: webpack.Configuration): Record<string, unknown> {
  return definePlugin(config).definitions as Record<string, unknown>;
}

/**
 * `file` (the pane's ?baseUrl override code) built alone by webpack with a config's module rules
 * and DefinePlugin, production mode (the minifier every build uses): the code that config ships.
 */
async function minifiedModule(config: webpack.Configuration, file: string): Promise<string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-build-test-"));
  const compiler = webpack({
    mode: "production",
    context: ROOT,
    entry: file,
    // A library keeps the module's export, so the minifier cannot drop it as unused.
    output: { path: out, filename: "out.js", library: { type: "commonjs2" } },
    resolve: config.resolve ?? {},
    module: config.module ?? {},
    plugins: [definePlugin(config)],
    infrastructureLogging: { level: "error" },
  });
  try {
    await new Promise<void>((resolve, reject) =>
      compiler.run((err, stats) =>
        compiler.close(() => {
          if (err) reject(err);
          else if (stats?.hasErrors()) reject(new Error(stats.toString("errors-only")));
          else resolve();
        }),
      ),
    );
    return fs.readFileSync(path.join(out, "out.js"), "utf8");
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Runs the manifest copy pattern's transform on the source manifest.xml. */
function builtManifest(config: webpack.Configuration): string {
  const copy = config.plugins?.find((p) => p?.constructor?.name === "CopyPlugin") as
    | {
        patterns: {
          from: string;
          transform?: (content: Buffer, file: string) => string | Buffer;
        }[];
      }
    | undefined;
  const pattern = copy?.patterns.find((p) => p.from === "manifest.xml");
  if (!pattern?.transform) throw new Error("no manifest.xml copy pattern with a transform");
  const source = fs.readFileSync(path.join(ROOT, "manifest.xml"));
  return pattern.transform(source, path.join(ROOT, "manifest.xml")).toString();
}

/** The options an HtmlWebpackPlugin instance was given, by output file name. */
function htmlOptions(config: webpack.Configuration, filename: string): Record<string, unknown> {
  const plugin = config.plugins?.find(
    (p) =>
      p?.constructor?.name === "HtmlWebpackPlugin" &&
      (p as unknown as { userOptions: { filename?: string } }).userOptions.filename === filename,
  ) as unknown as { userOptions: Record<string, unknown> } | undefined;
  if (!plugin) throw new Error(`no HtmlWebpackPlugin for ${filename}`);
  return plugin.userOptions;
}

function copiedFiles(config: webpack.Configuration): string[] {
  const copy = config.plugins?.find((p) => p?.constructor?.name === "CopyPlugin") as
    { patterns: { from: string; to?: string }[] } | undefined;
  return (copy?.patterns ?? []).map((p) => String(p.to ?? p.from));
}

/** The script URLs of a built page, in order, without the cache-busting query. */
function pageScripts(file: string): string[] {
  return [...read(file).matchAll(/<script[^>]*src="?([^" >]+)"?/g)].map(
    (m) => m[1]?.split("?")[0] ?? "",
  );
}

type BuildReport = Record<string, { initial: boolean; modules: string[] }>;

function origins(xml: string): string[] {
  const urls = xml.match(/(?:DefaultValue|Value)="(https?:\/\/[^"]+)"/g) ?? [];
  return [...new Set(urls.map((u) => new URL(u.replace(/^.*="|"$/g, "")).origin))];
}

describe("the built add-in", () => {
  test("dist has the task pane page, functions.json, functions-ja.json, manifest.xml and Office.js", () => {
    for (const file of [
      "taskpane.html",
      "preview.html",
      "functions.js",
      "functions.json",
      "functions-ja.json",
      "manifest.xml",
      "assets/icon-16.png",
      "assets/icon-32.png",
      "assets/icon-64.png",
      "assets/icon-80.png",
      "assets/help.html",
      "assets/office-js/office.js",
      "assets/office-js/o15apptofilemappingtable.js",
      "assets/office-js/ja-jp/office_strings.js",
    ]) {
      expect([file, fs.existsSync(path.join(E2E_DIST, file))]).toEqual([file, true]);
    }
  });

  test("the task pane page loads Office.js, then the functions bundle, then the pane (shared runtime)", () => {
    const html = read("taskpane.html");
    // Bundles carry the build's hash as a query string (cache busting in Office's web views).
    const scripts = [...html.matchAll(/<script[^>]*src="?([^" >]+)"?/g)].map(
      (m) => m[1]?.split("?")[0],
    );
    expect(html).toMatch(/functions\.js\?[0-9a-f]{8,}/);
    expect(scripts[0]).toBe("assets/office-js/office.js");
    const fn = scripts.indexOf("functions.js");
    const pane = scripts.indexOf("taskpane.js");
    expect(fn).toBeGreaterThan(0);
    expect(pane).toBeGreaterThan(fn);
  });

  test("functions.json lists the KAISHA catalogue with Japanese descriptions beside it", () => {
    const en = JSON.parse(read("functions.json")) as { functions: { id: string; name: string }[] };
    const ja = JSON.parse(read("functions-ja.json")) as {
      functions: { id: string; description?: string }[];
    };
    const names = en.functions.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining(["FINANCIALS", "FINANCIAL", "PRICES", "SCREEN", "USAGE"]),
    );
    expect(ja.functions.map((f) => f.id).sort()).toEqual(en.functions.map((f) => f.id).sort());
    expect(
      ja.functions.every((f) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(f.description ?? "")),
    ).toBe(true);
  });

  test("functions.js stays small (<= 150 KB gzip), carries no React and no source map", () => {
    const js = fs.readFileSync(path.join(E2E_DIST, "functions.js"));
    const gzipKb = zlib.gzipSync(js).length / 1024;
    expect(gzipKb).toBeLessThanOrEqual(150);
    const text = js.toString();
    expect(text).not.toMatch(/Symbol\.for\("react\./);
    expect(text).not.toContain("sourceMappingURL");
    expect(fs.existsSync(path.join(E2E_DIST, "functions.js.map"))).toBe(false);
  });

  test("the e2e build (like npm start) points at the sandbox and carries its demo key, in its settings file", () => {
    expect(read("kaisha-settings.js")).toBe(
      pageSettingsScript({
        baseUrl: E2E_BUILD_BASE_URL,
        demoKey: DEMO_API_KEY,
        urlOverrides: true,
      }),
    );
    // Each page sets them before any script of ours runs (Office.js reads none of them).
    for (const page of ["taskpane.html", "preview.html", "workbook.html"]) {
      const ours = pageScripts(page).filter(
        (s) => !/^(assets\/office-js\/|excel-standin|workbook-config)/.test(s),
      );
      expect([page, ours[0]]).toEqual([page, "kaisha-settings.js"]);
    }
  });

  test("dist/manifest.xml points every URL at the production origin", () => {
    const xml = read("manifest.xml");
    expect(origins(xml)).toEqual(["https://kaisha.example.com"]);
    expect(xml).not.toContain("localhost");
  });

  test("the functions' help links point at the production origin too", () => {
    for (const file of ["functions.json", "functions-ja.json"]) {
      const meta = JSON.parse(read(file)) as { functions: { helpUrl?: string }[] };
      const helpUrls = meta.functions.flatMap((f) => (f.helpUrl ? [f.helpUrl] : []));
      expect([file, helpUrls.length > 0]).toEqual([file, true]);
      expect([file, [...new Set(helpUrls.map((u) => new URL(u).origin))]]).toEqual([
        file,
        ["https://kaisha.example.com"],
      ]);
    }
  });
});

describe("the shared-runtime page (taskpane.html)", () => {
  const report = (): BuildReport => JSON.parse(read("build-report.json")) as BuildReport;
  const gzipBytes = (file: string): number =>
    zlib.gzipSync(fs.readFileSync(path.join(E2E_DIST, file)), { level: 9 }).length;

  test(`evaluates <= ${RUNTIME_PAGE_BUDGET_KB} KB gzipped of the add-in's JavaScript before the functions register`, () => {
    const scripts = pageScripts("taskpane.html");
    // Office.js is Microsoft's (the CDN in production); the rest is ours and counts, except the
    // sandbox settings file, which production's page does not load ("webpack settings by build").
    const ours = scripts.filter((s) => !s.startsWith("assets/office-js/"));
    expect(ours).toEqual(["kaisha-settings.js", "functions.js", "taskpane.js"]);
    ours.shift();
    const sizes = Object.fromEntries(scripts.map((s) => [s, gzipBytes(s)]));
    const total = ours.reduce((sum, s) => sum + (sizes[s] ?? 0), 0);
    // Every file the page loads up front, for the record (bench reads the same figures).
    fs.writeFileSync(
      path.join(ROOT, "test-artifacts", "runtime-page.json"),
      JSON.stringify({ scripts: sizes, oursGzipBytes: total }, null, 1),
    );
    expect(total).toBeLessThanOrEqual(RUNTIME_PAGE_BUDGET_KB * 1024);
  });

  test("React and Fluent are only in chunks loaded when the pane is shown (dynamic import)", () => {
    const r = report();
    const ui = /^node_modules\/(react|react-dom|scheduler|@fluentui|@griffel)\//;
    const initialUi = Object.entries(r)
      .filter(([, v]) => v.initial)
      .flatMap(([file, v]) => v.modules.filter((m) => ui.test(m)).map((m) => `${file}: ${m}`));
    expect(initialUi).toEqual([]);
    const lazy = Object.entries(r).filter(([, v]) => !v.initial);
    expect(
      lazy.some(([, v]) => v.modules.some((m) => m.startsWith("node_modules/react-dom/"))),
    ).toBe(true);
    expect(lazy.some(([, v]) => v.modules.includes("taskpane/app.tsx"))).toBe(true);
    // The files the page lists up front are exactly the initial ones of its entries: the entry.
    // The workbook's open, what listens for a background revalidation's changed cells (pane shown
    // or not), what follows the active sheet and the code that re-enters the cells' formulas are
    // a chunk of their own, fetched once Office is ready (taskpane/open/start.ts).
    expect(r["taskpane.js"]?.modules).toEqual(["taskpane/index.ts"]);
    const lazyOnly = [
      "taskpane/open/start.ts",
      "taskpane/recalc-on-revalidation.ts",
      "taskpane/excel/active-sheet-priority.ts",
      "taskpane/excel/reenter-formulas.ts",
    ];
    for (const mod of lazyOnly) {
      const holders = Object.entries(r).filter(([, v]) => v.modules.includes(mod));
      expect([mod, holders.length > 0, holders.every(([, v]) => !v.initial)]).toEqual([
        mod,
        true,
        true,
      ]);
    }
    const open = Object.entries(r).find(([, v]) => v.modules.includes("taskpane/open/start.ts"));
    expect(open?.[0]).toMatch(/^open\./);
  });

  test("one copy of src/session.ts and src/cell-errors.ts, in functions.js, shared with the pane", () => {
    const r = report();
    for (const mod of ["src/session.ts", "src/cell-errors.ts"]) {
      const files = Object.entries(r)
        .filter(([, v]) => v.modules.includes(mod))
        .map(([file]) => file);
      expect([mod, files]).toEqual([mod, ["functions.js"]]);
    }
  });
});

describe("webpack settings by build", () => {
  test("production (npm run build) loads Office.js from Microsoft's CDN and ships no npm copy", () => {
    const prod = configWith({ KAISHA_PREVIEW: "1" });
    for (const page of ["taskpane.html", "preview.html"]) {
      expect([page, htmlOptions(prod, page)["templateParameters"]]).toEqual([
        page,
        expect.objectContaining({ officeJs: OFFICE_JS_CDN }),
      ]);
    }
    expect(copiedFiles(prod).filter((f) => f.includes("office-js"))).toEqual([]);
  });

  test("npm start and the e2e build load the npm copy of Office.js (offline)", () => {
    const sandbox = { KAISHA_DEFAULT_BASE_URL: "http://127.0.0.1:8787/v1" };
    for (const config of [
      configWith(sandbox, "development"),
      configWith(sandbox),
      configWith({}, "development"),
    ]) {
      expect(htmlOptions(config, "taskpane.html")["templateParameters"]).toEqual(
        expect.objectContaining({ officeJs: "assets/office-js/office.js" }),
      );
      expect(copiedFiles(config)).toContain("assets/office-js/office.js");
    }
    // The e2e build's pages really reference it (the template is filled in).
    expect(pageScripts("taskpane.html")[0]).toBe("assets/office-js/office.js");
    expect(pageScripts("preview.html")[0]).toBe("assets/office-js/office.js");
  });

  test("the workbook page (the pane beside the Excel stand-in) is in sandbox builds only", () => {
    const names = (config: webpack.Configuration) =>
      (config.plugins ?? [])
        .filter((p) => p?.constructor?.name === "HtmlWebpackPlugin")
        .map((p) => (p as unknown as { userOptions: { filename?: string } }).userOptions.filename);
    expect(names(configWith({}))).not.toContain("workbook.html");
    const sandbox = configWith({ KAISHA_DEFAULT_BASE_URL: "http://127.0.0.1:8787/v1" });
    expect(names(sandbox)).toContain("workbook.html");
    expect(htmlOptions(sandbox, "workbook.html")["templateParameters"]).toEqual({
      officeJs: "assets/office-js/office.js",
      csp: expect.stringContaining("script-src 'self'"),
      settingsScript: "kaisha-settings.js",
      workbook: true,
    });
    // The e2e build's workbook page loads the stand-in before Office.js, as the tests inject it.
    const html = read("workbook.html");
    expect(html.indexOf("excel-standin.js")).toBeGreaterThan(0);
    expect(html.indexOf("excel-standin.js")).toBeLessThan(html.indexOf("office-js/office.js"));
    expect(read("taskpane.html")).not.toContain("excel-standin.js");
  });

  test("production: the live API base URL, no demo key and no ?baseUrl override, compiled in; no settings file", () => {
    const prod = configWith({ KAISHA_PREVIEW: "1" });
    const defs = definitions(prod);
    expect(defs["__KAISHA_DEFAULT_BASE_URL__"]).toBe(JSON.stringify("https://api.irbank.net/v1"));
    expect(defs["__KAISHA_DEMO_KEY__"]).toBe(JSON.stringify(""));
    expect(defs["__KAISHA_URL_OVERRIDES__"]).toBe("false");
    // The settings the e2e harness serves for production's (test/e2e/key-binding.test.ts).
    expect(PRODUCTION_PAGE_SETTINGS).toEqual({
      baseUrl: "https://api.irbank.net/v1",
      demoKey: "",
      urlOverrides: false,
    });
    for (const page of ["taskpane.html", "preview.html"]) {
      expect([page, htmlOptions(prod, page)["templateParameters"]]).toEqual([
        page,
        expect.not.objectContaining({ settingsScript: expect.anything() }),
      ]);
    }
    expect(prod.plugins?.map((p) => p?.constructor?.name)).not.toContain("PageSettingsPlugin");
  });

  test("production's minified code has no ?baseUrl override; the sandbox build's keeps it (read at run time)", async () => {
    const file = "./taskpane/state/url-overrides.ts";
    expect(await minifiedModule(configWith({}), file)).not.toContain('get("baseUrl")');
    // The grep means something: without production's literals the code stays.
    const sandbox = configWith({ KAISHA_DEFAULT_BASE_URL: "http://127.0.0.1:8787/v1" });
    expect(await minifiedModule(sandbox, file)).toContain('get("baseUrl")');
  });

  test("npm start / e2e: KAISHA_DEFAULT_BASE_URL and the demo key go to the settings file, read at run time", () => {
    const config = configWith(
      { KAISHA_DEFAULT_BASE_URL: "http://127.0.0.1:8787/v1", KAISHA_DEMO_KEY: "kaisakey_demo" },
      "development",
    );
    // No literal: the code reads the globals kaisha-settings.js sets.
    expect(definitions(config)).toEqual({});
    const plugin = config.plugins?.find((p) => p?.constructor?.name === "PageSettingsPlugin") as
      { settings: unknown } | undefined;
    expect(plugin?.settings).toEqual({
      baseUrl: "http://127.0.0.1:8787/v1",
      demoKey: "kaisakey_demo",
      urlOverrides: true,
    });
    expect(htmlOptions(config, "taskpane.html")["templateParameters"]).toEqual(
      expect.objectContaining({ settingsScript: "kaisha-settings.js" }),
    );
  });

  test("a demo key without a sandbox base URL is ignored (a production build never carries one)", () => {
    expect(
      definitions(configWith({ KAISHA_DEMO_KEY: "kaisakey_demo" }))["__KAISHA_DEMO_KEY__"],
    ).toBe('""');
  });

  test("ADDIN_PRODUCTION_URL rewrites the manifest; development keeps https://localhost:3000", () => {
    const prod = builtManifest(
      configWith({ ADDIN_PRODUCTION_URL: "https://addin.example.co.jp/kaisha/" }),
    );
    expect(origins(prod)).toEqual(["https://addin.example.co.jp"]);
    expect(prod).toContain('DefaultValue="https://addin.example.co.jp/kaisha/taskpane.html"');
    expect(prod).toContain('Value="https://addin.example.co.jp/kaisha/functions-ja.json"');
    const dev = builtManifest(configWith({}, "development"));
    expect(origins(dev)).toEqual(["https://localhost:3000"]);
  });

  test("a non-https production URL is refused", () => {
    expect(() => configWith({ ADDIN_PRODUCTION_URL: "http://insecure.example.com" })).toThrow(
      /must be https/,
    );
  });
});

/** The CSP a page of a config gets, as directive -> sources. */
function cspOf(config: webpack.Configuration, page = "taskpane.html"): Record<string, string[]> {
  const params = htmlOptions(config, page)["templateParameters"] as { csp: string };
  return Object.fromEntries(
    params.csp.split(";").map((d) => {
      const [name = "", ...sources] = d.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe("pages: Content-Security-Policy and the preview page", () => {
  test("production: scripts from our origin and Office.js's CDN only; connect to the API, the sandbox and our relay", () => {
    const csp = cspOf(configWith({}));
    expect(csp["script-src"]).toEqual(["'self'", "https://appsforoffice.microsoft.com"]);
    expect(csp["connect-src"]).toEqual([
      "'self'",
      "https://api.irbank.net",
      "http://127.0.0.1:8787",
    ]);
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    // No inline script and no eval anywhere.
    expect(Object.values(csp).flat()).not.toContain("'unsafe-eval'");
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
  });

  test("npm start / e2e builds may also reach any port on this computer (?baseUrl= test sandboxes)", () => {
    const csp = cspOf(configWith({ KAISHA_DEFAULT_BASE_URL: "http://127.0.0.1:9999/v1" }));
    expect(csp["connect-src"]).toEqual(
      expect.arrayContaining(["http://127.0.0.1:9999", "http://127.0.0.1:*", "http://localhost:*"]),
    );
    expect(cspOf(configWith({}))["connect-src"]).not.toContain("http://127.0.0.1:*");
  });

  test("KAISHA_CONNECT_SRC adds https origins and refuses plain http elsewhere", () => {
    const csp = cspOf(configWith({ KAISHA_CONNECT_SRC: "https://proxy.example.co.jp/v1" }));
    expect(csp["connect-src"]).toContain("https://proxy.example.co.jp");
    expect(() => configWith({ KAISHA_CONNECT_SRC: "http://proxy.example.co.jp" })).toThrow(
      /must be https/,
    );
  });

  test("the built pages carry the policy before any script", () => {
    for (const page of ["taskpane.html", "preview.html"]) {
      const html = read(page);
      // The build minifies the HTML: attribute quotes may be dropped.
      const meta = html.search(/http-equiv="?Content-Security-Policy/);
      expect([page, meta > 0 && meta < html.indexOf("<script")]).toEqual([page, true]);
      expect(html).toContain("script-src 'self' https://appsforoffice.microsoft.com;");
    }
  });

  test("npm run build ships no preview page (no page, no entries) unless KAISHA_PREVIEW=1", () => {
    const prod = configWith({});
    expect(() => htmlOptions(prod, "preview.html")).toThrow(/no HtmlWebpackPlugin/);
    expect(Object.keys(prod.entry as object)).toEqual(["functions", "taskpane"]);
    const asked = configWith({ KAISHA_PREVIEW: "1" });
    expect(htmlOptions(asked, "preview.html")["filename"]).toBe("preview.html");
    // npm start and the e2e build keep it.
    const sandbox = configWith({ KAISHA_DEFAULT_BASE_URL: "http://127.0.0.1:8787/v1" });
    expect(htmlOptions(sandbox, "preview.html")["filename"]).toBe("preview.html");
    expect(htmlOptions(configWith({}, "development"), "preview.html")["filename"]).toBe(
      "preview.html",
    );
  });
});

describe("Office tooling usage data", () => {
  test("every installed copy of office-addin-usage-data reports usage data off (nothing is sent)", () => {
    const copies = [
      "node_modules/office-addin-usage-data",
      "node_modules/office-addin-manifest/node_modules/office-addin-usage-data",
      "node_modules/office-addin-mock/node_modules/office-addin-usage-data",
    ].filter((dir) => fs.existsSync(path.join(ROOT, dir, "package.json")));
    expect(copies.length).toBeGreaterThan(0);
    for (const dir of copies) {
      const mod = require(path.join(ROOT, dir)) as {
        OfficeAddinUsageData: new (o: object) => { isUsageDataOn(): boolean };
      };
      const usage = new mod.OfficeAddinUsageData({ projectName: "kaisha", raisePrompt: false });
      expect([dir, usage.isUsageDataOn()]).toEqual([dir, false]);
    }
  });
});
