// ESLint rule: code outside src/client/ reaches the client only through its door, src/client/index.ts
// (ARCHITECTURE.md "Import rules"): static imports, re-exports, import(), import types and require.
"use strict";

const path = require("node:path");

/** The repository root: this file is scripts/eslint/client-door.js. */
const ROOT = path.resolve(__dirname, "../..");
const CLIENT = path.join(ROOT, "src", "client");
/** The door itself, with or without its extension (TypeScript resolves "./client" to it). */
const DOORS = new Set([CLIENT, path.join(CLIENT, "index"), path.join(CLIENT, "index.ts")]);

/**
 * The client module `specifier` reaches past the door, written from `file`, or undefined when it
 * is the door, outside src/client/, a package, or `file` is itself inside src/client/.
 * @param {string} file absolute path of the importing file
 * @param {string} specifier the import's text
 * @returns {string | undefined} the module's path below src/client/
 */
function pastTheDoor(file, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const from = path.resolve(file);
  if (from.startsWith(CLIENT + path.sep)) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  if (!target.startsWith(CLIENT + path.sep) || DOORS.has(target)) return undefined;
  return path.relative(CLIENT, target).split(path.sep).join("/");
}

/** @type {import("eslint").Rule.RuleModule & { pastTheDoor: typeof pastTheDoor }} */
module.exports = {
  pastTheDoor,
  meta: {
    type: "problem",
    docs: {
      description:
        "Outside src/client/, import the client from src/client/index.ts, never one of its modules",
    },
    schema: [],
    messages: {
      pastTheDoor:
        'Import from src/client/index.ts, not src/client/{{ module }}: export the name from the door if it is not there (ARCHITECTURE.md "Import rules").',
    },
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    /** @param {{ type: string, value?: unknown } | null | undefined} source a module specifier */
    function check(source) {
      if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
      const module = pastTheDoor(file, source.value);
      if (module !== undefined)
        context.report({ node: source, messageId: "pastTheDoor", data: { module } });
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `typeof import("../src/client/send")` in a type.
      TSImportType: (node) => {
        // typescript-eslint 8 names the specifier `source`; older versions `argument.literal`.
        if (node.source) return check(node.source);
        const arg = node.argument;
        check(arg && arg.type === "TSLiteralType" ? arg.literal : arg);
      },
      // require("..."), jest.mock("...") and jest.requireActual("...").
      CallExpression: (node) => {
        const callee = node.callee;
        const name =
          callee.type === "Identifier"
            ? callee.name
            : callee.type === "MemberExpression" && callee.property.type === "Identifier"
              ? callee.property.name
              : undefined;
        if (name === "require" || name === "mock" || name === "requireActual" || name === "doMock")
          check(node.arguments[0]);
      },
    };
  },
};
