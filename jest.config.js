// Jest configuration: unit/integration tests in Node, e2e tests in headless Chromium as a separate project.

/**
 * TypeScript through swc: transpile only (`tsc --noEmit`, npm run typecheck, is the type check), as
 * ts-jest's isolatedModules did, at a fraction of its cost per file. tsconfig.json's settings that
 * matter to emitted code: target ES2022, react-jsx; CommonJS for jest's module registry. `.ts` files
 * are parsed without TSX so `<T>value` assertions keep their TypeScript meaning. @swc/jest hoists
 * jest.mock() calls above the imports, as ts-jest did.
 */
const swc = (tsx) => [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx },
      target: "es2022",
      transform: { react: { runtime: "automatic" } },
    },
    module: { type: "commonjs" },
  },
];
const common = {
  testEnvironment: "node",
  // The sandbox's dataset tables, generated once per run for every suite (test/sandbox-tables.ts).
  globalTeardown: "<rootDir>/test/sandbox-tables-teardown.ts",
  transform: { "^.+\\.ts$": swc(false), "^.+\\.tsx$": swc(true) },
  moduleFileExtensions: ["ts", "tsx", "js", "json"],
};
module.exports = {
  projects: [
    {
      ...common,
      displayName: "unit",
      testMatch: ["<rootDir>/test/**/*.test.ts?(x)"],
      testPathIgnorePatterns: ["/test/e2e/"],
      globalSetup: "<rootDir>/test/sandbox-tables.ts",
    },
    {
      ...common,
      displayName: "e2e",
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts"],
      // Builds the add-in once (webpack, production mode, sandbox defaults) before any e2e test, and
      // writes the sandbox tables like the unit project.
      globalSetup: "<rootDir>/test/e2e/global-setup.ts",
      setupFilesAfterEnv: ["<rootDir>/test/e2e/setup-timeout.ts"],
    },
  ],
};
