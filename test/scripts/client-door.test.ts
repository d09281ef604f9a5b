// The client-door lint rule (scripts/eslint/client-door.js): outside src/client/ the client is imported
// from src/client/index.ts only, in every form an import takes; inside the folder anything goes.
import path from "node:path";
import { RuleTester, type Rule } from "eslint";
import tseslint from "typescript-eslint";

const rule = require("../../scripts/eslint/client-door.js") as Rule.RuleModule;
const ROOT = path.resolve(__dirname, "../..");
const at = (file: string): string => path.join(ROOT, file);

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run("client-door", rule, {
  valid: [
    { code: 'import { createClient } from "../src/client";', filename: at("functions/x.ts") },
    { code: 'import { createClient } from "../src/client/index";', filename: at("bench/x.ts") },
    { code: 'import type { ResponseOf } from "../client";', filename: at("src/domain/x.ts") },
    // Inside the client, its modules import each other.
    { code: 'import { cacheKey } from "./cache";', filename: at("src/client/client.ts") },
    { code: 'import { todayJst } from "../util/normalize";', filename: at("src/client/ttl.ts") },
    // A folder named client elsewhere is not the client.
    { code: 'import { reply } from "../client/helpers";', filename: at("test/functions/x.ts") },
    { code: 'import { x } from "./client/y";', filename: at("taskpane/x.ts") },
    { code: 'import React from "react";', filename: at("taskpane/x.tsx") },
  ],
  invalid: [
    {
      code: 'import { cacheKey } from "../../src/client/cache";',
      filename: at("taskpane/trace/x.ts"),
      errors: [{ messageId: "pastTheDoor", data: { module: "cache" } }],
    },
    {
      code: 'import type { ResponseOf } from "../client/types";',
      filename: at("src/domain/x.ts"),
      errors: [{ messageId: "pastTheDoor", data: { module: "types" } }],
    },
    {
      code: 'export { staleInfo } from "../src/client/stale";',
      filename: at("functions/x.ts"),
      errors: [{ messageId: "pastTheDoor" }],
    },
    {
      code: 'export * from "../src/client/errors";',
      filename: at("functions/x.ts"),
      errors: [{ messageId: "pastTheDoor" }],
    },
    {
      code: 'const load = () => import("../src/client/stored-check");',
      filename: at("functions/x.ts"),
      errors: [{ messageId: "pastTheDoor", data: { module: "stored-check" } }],
    },
    {
      code: 'type Send = typeof import("../src/client/send");',
      filename: at("bench/x.ts"),
      errors: [{ messageId: "pastTheDoor", data: { module: "send" } }],
    },
    {
      code: 'jest.mock("../../src/client/send");\nconst c = require("../../src/client/client");',
      filename: at("test/functions/x.test.ts"),
      errors: [{ messageId: "pastTheDoor" }, { messageId: "pastTheDoor" }],
    },
    {
      code: 'import { sha256Hex } from "./client/sha256";',
      filename: at("src/x.ts"),
      errors: [{ messageId: "pastTheDoor", data: { module: "sha256" } }],
    },
  ],
});
