// Builds functions-ja.json (English names, Japanese descriptions) from the generated functions.json
// and scripts/functions-ja-table.json, as a webpack 5 plugin; generated metadata cannot be
// localised (Microsoft Learn, localizing custom functions), so the manifest's ja-JP override
// points at this file.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const DEFAULT_TABLE = path.join(__dirname, "functions-ja-table.json");
/** The origin the JSDoc @helpurl values use (the dev server, like manifest.xml). */
const DEV_ORIGIN = "https://localhost:3000";

/**
 * functions.json (object or JSON text) + translation table -> the Japanese metadata object.
 * Function ids, names, types and options are kept; every function and parameter description is
 * replaced from the table, and parameter names from its "$parameterNames" dictionary (one Japanese
 * name per English name across functions). Throws one Error listing every missing translation or
 * parameter name Excel would not take.
 *
 * Table shape: { "<FUNCTION ID>": { "description": "…", "parameters": { "<param name>": "…" } },
 *                "$parameterNames": { "<param name>": "<日本語の引数名>" } }
 *
 * @example buildFunctionsJa(JSON.parse(functionsJson), require("./functions-ja-table.json"))
 */
function buildFunctionsJa(functionsJson, table) {
  const metadata = typeof functionsJson === "string" ? JSON.parse(functionsJson) : functionsJson;
  if (!metadata || !Array.isArray(metadata.functions)) {
    throw new Error("functions-ja: functions.json has no functions array");
  }
  const missing = [];
  const names = table.$parameterNames || {};
  const functions = metadata.functions.map((fn) => {
    const entry = table[fn.id];
    const description =
      entry && typeof entry.description === "string" ? entry.description.trim() : "";
    if (description === "") missing.push(`${fn.id} (description)`);
    const parameters = (fn.parameters || []).map((p) => {
      const text =
        entry && entry.parameters && typeof entry.parameters[p.name] === "string"
          ? entry.parameters[p.name].trim()
          : "";
      if (text === "") missing.push(`${fn.id}.${p.name}`);
      const name = typeof names[p.name] === "string" ? names[p.name] : p.name;
      if (!isParameterName(name)) missing.push(`${fn.id}.${p.name} (name "${name}")`);
      return { ...p, name, description: text };
    });
    const localNames = parameters.map((p) => p.name);
    if (new Set(localNames).size !== localNames.length) missing.push(`${fn.id} (duplicate names)`);
    return { ...fn, description, parameters };
  });
  if (missing.length > 0) {
    throw new Error(
      `functions-ja: missing Japanese translations in scripts/functions-ja-table.json: ${missing.join(", ")}`,
    );
  }
  return { ...metadata, functions };
}

/**
 * Microsoft, "Custom functions naming and localization": a name starts with a letter and uses only
 * Unicode letters, digits, underscores and periods. The same rule is applied to parameter names.
 */
function isParameterName(name) {
  return /^\p{L}[\p{L}\p{N}_.]*$/u.test(name);
}

/** Replaces the dev origin of help URLs (JSDoc @helpurl) with the deployment origin. */
function rewriteHelpOrigin(metadata, origin) {
  if (!origin || origin === DEV_ORIGIN) return metadata;
  return {
    ...metadata,
    functions: metadata.functions.map((fn) =>
      typeof fn.helpUrl === "string" && fn.helpUrl.startsWith(DEV_ORIGIN)
        ? { ...fn, helpUrl: origin + fn.helpUrl.slice(DEV_ORIGIN.length) }
        : fn,
    ),
  };
}

/**
 * webpack 5 plugin: after custom-functions-metadata-plugin has added functions.json, emits
 * functions-ja.json; a missing translation fails the build.
 *
 * Options (all optional): `input` ("functions.json"), `output` ("functions-ja.json"), `table` (path
 * of the translation table), `helpOrigin` (origin for help URLs in BOTH files, e.g. the production
 * origin; default: leave the dev origin).
 *
 * @example new FunctionsJaPlugin({ helpOrigin: production ? origin : undefined })
 */
class FunctionsJaPlugin {
  constructor(options = {}) {
    this.options = {
      input: options.input || "functions.json",
      output: options.output || "functions-ja.json",
      table: options.table || DEFAULT_TABLE,
      helpOrigin: options.helpOrigin,
    };
  }

  apply(compiler) {
    const { webpack } = compiler;
    const name = "FunctionsJaPlugin";
    compiler.hooks.thisCompilation.tap(name, (compilation) => {
      compilation.fileDependencies.add(this.options.table);
      compilation.hooks.processAssets.tap(
        { name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const asset = compilation.getAsset(this.options.input);
          if (!asset) {
            compilation.errors.push(
              new webpack.WebpackError(
                `${name}: ${this.options.input} was not generated (is CustomFunctionsMetadataPlugin before this plugin?)`,
              ),
            );
            return;
          }
          try {
            const table = JSON.parse(fs.readFileSync(this.options.table, "utf8"));
            const english = rewriteHelpOrigin(
              JSON.parse(asset.source.source().toString()),
              this.options.helpOrigin,
            );
            const japanese = buildFunctionsJa(english, table);
            const { RawSource } = webpack.sources;
            if (this.options.helpOrigin)
              compilation.updateAsset(
                this.options.input,
                new RawSource(JSON.stringify(english, null, 4)),
              );
            compilation.emitAsset(
              this.options.output,
              new RawSource(JSON.stringify(japanese, null, 4)),
            );
          } catch (err) {
            compilation.errors.push(
              new webpack.WebpackError(
                `${name}: ${err instanceof Error ? err.message : String(err)}`,
              ),
            );
          }
        },
      );
    });
  }
}

module.exports = { FunctionsJaPlugin, buildFunctionsJa, rewriteHelpOrigin, isParameterName };
