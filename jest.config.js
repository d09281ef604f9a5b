// Jest configuration: unit/integration tests in Node, e2e tests in headless Chromium as a separate project.

const { swcOptions } = require("./scripts/swc-options");

/**
 * TypeScript through swc (scripts/swc-options.js: transpile only, as ts-jest's isolatedModules did,
 * at a fraction of its cost per file), as CommonJS for jest's module registry. @swc/jest hoists
 * jest.mock() calls above the imports, as ts-jest did.
 */
const swc = (file) => ["@swc/jest", { ...swcOptions(file), module: { type: "commonjs" } }];
const common = {
  testEnvironment: "node",
  // The sandbox's dataset tables, generated once per run for every suite (test/sandbox-tables.ts).
  globalTeardown: "<rootDir>/test/sandbox-tables-teardown.ts",
  transform: { "^.+\\.ts$": swc("ts"), "^.+\\.tsx$": swc("tsx") },
  moduleFileExtensions: ["ts", "tsx", "js", "json"],
  // numfmt 4.0.1 names dist/index.cjs for require(), a file its package lacks; dist/index.js is
  // that CommonJS build (webpack reaches it through the package's "default" entry).
  moduleNameMapper: { "^numfmt$": "<rootDir>/node_modules/numfmt/dist/index.js" },
};
module.exports = {
  /**
   * Four workers on the two cores: a browser suite's worker mostly waits on its pages, its core
   * then the unit suites' (test/slow-first-sequencer.js runs at most three browser suites at once).
   */
  maxWorkers: 4,
  // The longest suites first, also on a fresh clone without jest's timing cache.
  testSequencer: "<rootDir>/test/slow-first-sequencer.js",
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/test/**/*.test.ts?(x)"],
      testPathIgnorePatterns: ["/test/e2e/"],
      globalSetup: "<rootDir>/test/sandbox-tables.ts",
      // Property tests draw the same cases on every run unless FC_SEED asks for others; the
      // suites' processes run a little below the e2e build and the browser (test/unit-priority.ts).
      setupFiles: ["<rootDir>/test/fast-check-seed.ts", "<rootDir>/test/unit-priority.ts"],
      // Fluent's packages and icons, each evaluated when first read (test/react-*-lazy.js).
      moduleNameMapper: {
        ...common.moduleNameMapper,
        "^@fluentui/react-icons$": "<rootDir>/test/react-icons-lazy.js",
        "^@fluentui/react-components$": "<rootDir>/test/react-components-lazy.js",
      },
    },
    {
      ...common,
      displayName: "e2e",
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts"],
      // Starts the add-in's one build (webpack, production mode, sandbox defaults) without waiting
      // for it, writes the sandbox tables like the unit project and starts the run's one Chromium,
      // which the teardown closes (test/e2e/browser.ts). Each e2e suite first waits for the build
      // (test/e2e/build-ready.ts), so the unit suites run while webpack works.
      globalSetup: "<rootDir>/test/e2e/global-setup.ts",
      globalTeardown: "<rootDir>/test/e2e/global-teardown.ts",
      setupFilesAfterEnv: [
        "<rootDir>/test/e2e/setup-timeout.ts",
        "<rootDir>/test/e2e/build-ready.ts",
      ],
    },
  ],
};
