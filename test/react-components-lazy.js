// Jest's @fluentui/react-components (jest.config.js moduleNameMapper): the package's own index, each Fluent package it re-exports evaluated when first read.
"use strict";

/*
 * The package's index (lib-commonjs/index.cjs) requires all 58 packages it re-exports, about 0.6 s
 * of CPU in every suite that renders a Fluent component, most of them (carousel, nav, color picker,
 * tree...) never rendered. Its exports are getters (`get Button() { return _reactbutton.Button; }`),
 * so here the index runs as the package wrote it, but each package it requires is a proxy that
 * requires the real one, through jest's own module registry, on the first read of any of its
 * names. Every package is marked "sideEffects": false: webpack's build leaves out the unused ones
 * the same way. test/taskpane/fluent-lazy.test.ts checks the names and objects.
 */
const path = require("node:path");
const { runIndex } = require("./run-index");

/** The package's CommonJS build (its "main"). */
const LIB = path.join(
  __dirname,
  "..",
  "node_modules",
  "@fluentui",
  "react-components",
  "lib-commonjs",
);

/** A package required from the index, evaluated when one of its names is first read. */
function lazyPackage(spec) {
  const file = require.resolve(spec, { paths: [LIB] });
  let real;
  return new Proxy(
    {},
    {
      get: (_, name) => {
        real ??= require(file);
        return real[name];
      },
    },
  );
}

runIndex(module, path.join(LIB, "index.cjs"), lazyPackage);
