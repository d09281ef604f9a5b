// Jest's @fluentui/react-icons (jest.config.js moduleNameMapper): the package's own index and icons, each chunk of icons evaluated when first read.
"use strict";

/*
 * The package's index (lib-cjs/index.cjs) evaluates all its 60 chunks, 19 MB of icons: about 0.6 s
 * of CPU in every suite that renders a Fluent component, which reads a few dozen of them. Here the
 * index itself runs as the package wrote it, but each chunk it re-exports is first a stand-in with
 * the chunk's export names (read from tsc's `exports.A = exports.B = ... = void 0;` lines), whose
 * getters evaluate the real chunk, through jest's own module registry, on the first read.
 * test/taskpane/fluent-lazy.test.ts checks that the names and the icons are the package's.
 */
const fs = require("node:fs");
const path = require("node:path");
const { runIndex } = require("./run-index");

/** The package's CommonJS build (its "main"). */
const LIB = path.join(__dirname, "..", "node_modules", "@fluentui", "react-icons", "lib-cjs");
/** The index's chunks of icons. */
const CHUNK = /^\.\/(icons|sizedIcons)\/chunk-\d+\.cjs$/;
/** A name tsc's CommonJS output assigns on `exports`. */
const EXPORTED = /\bexports\.([A-Za-z_$][\w$]*) = /g;

/**
 * A chunk's export names in the order the chunk creates them: tsc declares every export up front in
 * `exports.A = exports.B = ... = void 0;` lines, each assigned right to left.
 */
function namesOf(file) {
  const names = [];
  let declaring = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n", 200)) {
    const declares = line.startsWith("exports.") && line.endsWith(" = void 0;");
    if (declaring && !declares) break;
    declaring = declares;
    if (declares) names.push(...[...line.matchAll(EXPORTED)].map((m) => m[1]).reverse());
  }
  return names;
}

/** A chunk's exports, each evaluating the chunk when first read. */
function lazyChunk(file) {
  const names = namesOf(file);
  let chunk;
  const stub = {};
  for (const name of names) {
    Object.defineProperty(stub, name, {
      enumerable: true,
      get: () => {
        chunk ??= require(file);
        return chunk[name];
      },
    });
  }
  return stub;
}

/** The index's require: chunks lazily, everything else (utilities, contexts) at once. */
function indexRequire(spec) {
  if (CHUNK.test(spec)) return lazyChunk(path.join(LIB, spec));
  return require(require.resolve(spec, { paths: [LIB] }));
}

runIndex(module, path.join(LIB, "index.cjs"), indexRequire);
