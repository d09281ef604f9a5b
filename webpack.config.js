// webpack 5 build of the add-in: task pane + custom functions in one shared-runtime page, the preview
// page, functions.json / functions-ja.json, Office.js (Microsoft's CDN in production, the npm copy
// for npm start and tests) and the manifest.
const fs = require("node:fs");
const path = require("node:path");
const { URL } = require("node:url");
const webpack = require("webpack");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const MinimizerPlugin = require("minimizer-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const { swcOptions } = require("./scripts/swc-options");
const { contentSecurityPolicy } = require("./scripts/csp");
const {
  PAGE_SETTINGS_FILE,
  PRODUCTION_PAGE_SETTINGS,
  pageSettingsScript,
  settingsDefinitions,
} = require("./scripts/page-settings");

/** The origin every URL in the source manifest.xml uses (the dev server). */
const DEV_ORIGIN = "https://localhost:3000";
/** Where production users' Excel loads the add-in from; override with ADDIN_PRODUCTION_URL. */
const DEFAULT_PRODUCTION_ORIGIN = "https://kaisha.example.com";
/** The live API (spec: paths are relative to {base_url}/v1). */
const PRODUCTION_API_BASE_URL = PRODUCTION_PAGE_SETTINGS.baseUrl;
/** The local sandbox (the pane's "Sandbox" connection, in every build). */
const SANDBOX_API_BASE_URL = "http://127.0.0.1:8787/v1";

/**
 * Microsoft requires published add-ins to load Office.js from its CDN (the npm package's README: the
 * npm copy is not officially supported); the CDN also serves every display language's strings.
 */
const OFFICE_JS_CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
/** Where pages load the npm copy from when offline (npm start, the e2e build, tests). */
const OFFICE_JS_LOCAL = "assets/office-js/office.js";
const OFFICE_JS_DIR = path.join(__dirname, "node_modules/@microsoft/office-js/dist");
/**
 * The Office.js files a page of ours can need: the loader and its host table, the Excel host scripts it lazy-loads on
 * Windows, Mac and the web (plus their "-core" variants), the custom-functions runtime, its telemetry
 * helpers and the English and Japanese strings. The rest of the 86 MB package (other hosts, other
 * languages, debug builds) is left out.
 */
const OFFICE_JS_FILES = [
  "office.js",
  // office.js loads this table first; without it Office.onReady never resolves.
  "o15apptofilemappingtable.js",
  "custom-functions-runtime.js",
  "excel-win32-16.01.js",
  "excel-win32-16.01-core.js",
  "excel-win32-16.00.js",
  "excel-mac-16.00.js",
  "excel-mac-16.00-core.js",
  "excel-web-16.00.js",
  "excel-web-16.00-core.js",
  "en-us/office_strings.js",
  "ja-jp/office_strings.js",
  "telemetry/oteljs_agave.js",
  "telemetry/oteljs.js",
];

/** Script assets, as webpack's default minimizer matches them. */
const SCRIPT_ASSET = /\.[cm]?js(?:[?#].*)?$/i;
/** The pane's React and Fluent chunk (splitChunks `vendor` below names it). */
const PANE_VENDOR_ASSET = /(?:^|\/)pane-vendor\./;

/** Packages that belong to the task pane only; the functions bundle must never contain them. */
const UI_VENDOR =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|@fluentui|@griffel|@floating-ui|tabster|keyborg|@swc|@emotion)[\\/]/;

/**
 * The Office.js the pages load: the CDN in a production build (`npm run build`); the npm copy in
 * builds with sandbox defaults (npm start, the e2e build), which must work offline.
 * KAISHA_OFFICE_JS=cdn|local overrides.
 */
function officeJsSource(production) {
  const forced = process.env.KAISHA_OFFICE_JS;
  if (forced === "cdn" || forced === "local") return forced;
  if (forced) throw new Error(`KAISHA_OFFICE_JS must be cdn or local: ${forced}`);
  return production && !process.env.KAISHA_DEFAULT_BASE_URL ? "cdn" : "local";
}

function productionOrigin() {
  const raw = process.env.ADDIN_PRODUCTION_URL || DEFAULT_PRODUCTION_ORIGIN;
  const url = new URL(raw);
  if (url.protocol !== "https:") throw new Error(`ADDIN_PRODUCTION_URL must be https: ${raw}`);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/**
 * The sandbox/demo settings are baked in only when KAISHA_DEFAULT_BASE_URL is set (npm start and the
 * e2e build); a plain production build points at the live API and carries no key.
 */
function apiDefaults() {
  const sandboxBaseUrl = process.env.KAISHA_DEFAULT_BASE_URL;
  return {
    baseUrl: sandboxBaseUrl || PRODUCTION_API_BASE_URL,
    demoKey: sandboxBaseUrl ? process.env.KAISHA_DEMO_KEY || "" : "",
    sandbox: Boolean(sandboxBaseUrl),
  };
}

/**
 * Rewrites the dev origin in emitted JSON (the functions' `helpUrl`s in functions.json and
 * functions-ja.json) to the production origin, as the manifest copy does for manifest.xml.
 */
class RewriteOriginPlugin {
  constructor(from, to) {
    this.from = from;
    this.to = to;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap("RewriteOriginPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        // Last stage: after the metadata plugins have emitted their JSON.
        { name: "RewriteOriginPlugin", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        (assets) => {
          for (const name of Object.keys(assets)) {
            if (!/^functions.*\.json$/.test(name)) continue;
            const text = assets[name].source().toString();
            if (!text.includes(this.from)) continue;
            compilation.updateAsset(
              name,
              new webpack.sources.RawSource(text.split(this.from).join(this.to)),
            );
          }
        },
      );
    });
  }
}

/**
 * With KAISHA_BUILD_REPORT=1 (the e2e build), writes build-report.json: for each emitted script,
 * whether the page loads it up front (initial) and the source modules in it, so tests can check
 * what the shared-runtime page evaluates and that src/session.ts exists once.
 */
class BuildReportPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap("BuildReportPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "BuildReportPlugin", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          // Concatenated modules (production) hold their parts in `modules`.
          const resources = (m) =>
            m.resource ? [m.resource] : m.modules ? [...m.modules].flatMap(resources) : [];
          const report = {};
          for (const chunk of compilation.chunks) {
            const modules = compilation.chunkGraph
              .getChunkModules(chunk)
              .flatMap(resources)
              .map((r) => path.relative(__dirname, r).split(path.sep).join("/"))
              .sort();
            for (const file of chunk.files) {
              if (file.endsWith(".js")) report[file] = { initial: chunk.canBeInitial(), modules };
            }
          }
          compilation.emitAsset(
            "build-report.json",
            new webpack.sources.RawSource(JSON.stringify(report, null, 1)),
          );
        },
      );
    });
  }
}

/**
 * Sandbox builds (npm start, e2e): emits the pages' settings file (scripts/page-settings.js) with
 * the build's defaults; the dev server may answer it with others (test/e2e/harness.ts `settings`),
 * so one build serves the sandbox and the production settings alike.
 */
class PageSettingsPlugin {
  constructor(settings) {
    this.settings = settings;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap("PageSettingsPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "PageSettingsPlugin", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset(
            PAGE_SETTINGS_FILE,
            new webpack.sources.RawSource(pageSettingsScript(this.settings)),
            // As the dev server answers it (scripts/dev-server.ts `pageSettings`), unminified.
            { minimized: true },
          );
        },
      );
    });
  }
}

function functionsJaPlugin() {
  // Written by the functions engineer: emits functions-ja.json from the translation table.
  const file = path.join(__dirname, "scripts/functions-ja.js");
  if (!fs.existsSync(file)) return [];
  const { FunctionsJaPlugin } = require(file);
  return [new FunctionsJaPlugin()];
}

/**
 * The preview page ships with npm start and test builds; a production build (`npm run build`) leaves
 * it out unless KAISHA_PREVIEW=1 asks for it: it is a developer's page, not part of the add-in.
 */
function withPreview(production, api) {
  return !production || api.sandbox || process.env.KAISHA_PREVIEW === "1";
}

module.exports = (_env, argv) => {
  const mode = argv && argv.mode === "development" ? "development" : "production";
  const production = mode === "production";
  const api = apiDefaults();
  const origin = production ? productionOrigin() : DEV_ORIGIN;
  const officeJs = officeJsSource(production);
  const officeJsUrl = officeJs === "cdn" ? OFFICE_JS_CDN : OFFICE_JS_LOCAL;
  const urlOverrides = !production || api.sandbox;
  const preview = withPreview(production, api);
  const csp = contentSecurityPolicy({
    apiBaseUrls: [PRODUCTION_API_BASE_URL, SANDBOX_API_BASE_URL, api.baseUrl],
    localPorts: urlOverrides,
    extra: process.env.KAISHA_CONNECT_SRC,
  });
  // npm start and the e2e build read their connection settings at run time (one build for the
  // sandbox and the production settings); npm run build compiles its own in, adding no bytes.
  const settings = { baseUrl: api.baseUrl, demoKey: api.demoKey, urlOverrides };
  const pageParameters = {
    officeJs: officeJsUrl,
    csp,
    ...(api.sandbox ? { settingsScript: PAGE_SETTINGS_FILE } : {}),
  };

  return {
    mode,
    context: __dirname,
    devtool: production ? false : "source-map",
    entry: {
      // The functions entry carries the webpack runtime and the shared client (src/session.ts);
      // the pages depend on it, so the page and the functions share one module instance of each.
      functions: "./functions/index.ts",
      taskpane: { import: "./taskpane/index.ts", dependOn: "functions" },
      ...(preview
        ? {
            "preview-standin": "./standin/custom-functions-standin.ts",
            preview: { import: "./standin/preview-page.ts", dependOn: "functions" },
          }
        : {}),
      // The Excel stand-in (standin/STANDIN.md) for the e2e tests: sandbox builds only,
      // loaded by no page of ours (test/e2e/harness.ts injects it before a page's scripts).
      // The workbook page (workbook.html): the same stand-in with a grid beside the real pane.
      ...(process.env.KAISHA_DEFAULT_BASE_URL
        ? {
            "excel-standin": "./standin/excel-standin.ts",
            "workbook-config": "./standin/workbook-config.ts",
            "workbook-view": "./standin/workbook-view.ts",
          }
        : {}),
    },
    output: {
      path: path.join(__dirname, "dist"),
      filename: "[name].js",
      chunkFilename: "[name].[contenthash:8].js",
      clean: true,
      publicPath: "auto",
    },
    resolve: { extensions: [".ts", ".tsx", ".js", ".json"] },
    module: {
      // Type checking is `tsc --noEmit` in npm test; swc only transpiles (scripts/swc-options.js),
      // leaving import/export to webpack so it can tree-shake and split.
      rules: [
        ...["ts", "tsx"].map((file) => ({
          test: file === "ts" ? /\.ts$/ : /\.tsx$/,
          exclude: /node_modules/,
          use: { loader: "swc-loader", options: { ...swcOptions(file), sourceMaps: !production } },
        })),
        // The client's door (src/client/index.ts) only re-exports: side-effect free, an import
        // through it links to the defining module, so the door pulls no lazy chunk's code onto
        // the runtime page (test/e2e/build.test.ts).
        { test: /src[\\/]client[\\/]index\.ts$/, sideEffects: false },
      ],
    },
    optimization: {
      // The add-in's own code minified as webpack's default does (terser, compress passes 2), not
      // by swc's minifier: the bench's Chromium warm recalculation (Model 500) was 3.5-3.7 µs per
      // cell in three runs with swc's output, 2.3-3.7 (mean 2.8) in four with terser's; noisy, but
      // Chromium is the runtime the add-in lives in. The pane's React and Fluent chunk runs no
      // cell: swc minifies it, a fifth of the e2e build's CPU less (28.7 s to 22.6 s on this
      // 2-core machine) and 1 % smaller than terser's.
      minimizer: [
        new MinimizerPlugin({
          test: SCRIPT_ASSET,
          exclude: PANE_VENDOR_ASSET,
          minify: MinimizerPlugin.terserMinify,
          minimizerOptions: { compress: { passes: 2 } },
        }),
        new MinimizerPlugin({
          test: SCRIPT_ASSET,
          include: PANE_VENDOR_ASSET,
          minify: MinimizerPlugin.swcMinify,
        }),
      ],
      splitChunks: {
        cacheGroups: {
          // React and Fluent UI go to their own file, fetched by the pane's dynamic import only
          // when the pane is shown (taskpane/index.ts): the runtime page registers the functions
          // without evaluating them.
          vendor: {
            test: UI_VENDOR,
            name: "pane-vendor",
            chunks: "async",
            enforce: true,
          },
        },
      },
    },
    performance: {
      hints: production ? "warning" : false,
      assetFilter: (file) => file === "functions.js",
      maxAssetSize: 600 * 1024,
      maxEntrypointSize: 600 * 1024,
    },
    plugins: [
      // ?baseUrl / ?mode page overrides: off and minified away in npm run build.
      new webpack.DefinePlugin(settingsDefinitions(api.sandbox ? undefined : settings)),
      ...(api.sandbox ? [new PageSettingsPlugin(settings)] : []),
      new CustomFunctionsMetadataPlugin({
        input: "./functions/index.ts",
        output: "functions.json",
      }),
      ...functionsJaPlugin(),
      ...(production ? [new RewriteOriginPlugin(DEV_ORIGIN, origin)] : []),
      ...(process.env.KAISHA_BUILD_REPORT === "1" ? [new BuildReportPlugin()] : []),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./taskpane/taskpane.html",
        chunks: ["functions", "taskpane"],
        chunksSortMode: "manual",
        templateParameters: pageParameters,
        // Office's web views cache hard: each build's script URLs carry its hash (?<hash>).
        hash: production,
      }),
      ...(preview
        ? [
            new HtmlWebpackPlugin({
              filename: "preview.html",
              template: "./standin/preview.html",
              chunks: ["preview-standin", "functions", "preview"],
              chunksSortMode: "manual",
              templateParameters: pageParameters,
              hash: production,
            }),
          ]
        : []),
      // Sandbox builds (npm start, e2e): the task pane beside a workbook grid on the Excel
      // stand-in, so every pane flow runs in a browser without Excel (README).
      ...(process.env.KAISHA_DEFAULT_BASE_URL
        ? [
            new HtmlWebpackPlugin({
              filename: "workbook.html",
              template: "./taskpane/taskpane.html",
              chunks: ["functions", "taskpane", "workbook-view"],
              chunksSortMode: "manual",
              templateParameters: { ...pageParameters, workbook: true },
              hash: production,
            }),
          ]
        : []),
      new CopyWebpackPlugin({
        patterns: [
          {
            from: "manifest.xml",
            to: "manifest.xml",
            // The source manifest points at the dev server; production points at the real host.
            transform: (content) =>
              production ? content.toString().split(DEV_ORIGIN).join(origin) : content,
          },
          { from: "assets", to: "assets", globOptions: { ignore: ["**/.*"] } },
          // The npm copy ships only with builds that load it, as Microsoft minified it: marked
          // minimized, terser leaves its 5.5 MB alone (it re-minified them in every production-mode
          // sandbox build, half of the e2e build's CPU, to gain 0.3 %).
          ...(officeJs === "cdn" ? [] : OFFICE_JS_FILES).map((file) => ({
            from: path.join(OFFICE_JS_DIR, file),
            to: `assets/office-js/${file}`,
            info: { minimized: true },
          })),
        ],
      }),
    ],
    stats: "errors-warnings",
  };
};
