// Runs a package's CommonJS index as written, with a require of the caller's (test/react-icons-lazy.js, test/react-components-lazy.js).
"use strict";
const fs = require("node:fs");

/**
 * Evaluates `file` (a package's index) into `module`, its requires answered by `indexRequire`: the
 * index's own code runs unchanged, only what its requires return is the caller's.
 */
function runIndex(module, file, indexRequire) {
  new Function("exports", "require", "module", fs.readFileSync(file, "utf8"))(
    module.exports,
    indexRequire,
    module,
  );
}

module.exports = { runIndex };
