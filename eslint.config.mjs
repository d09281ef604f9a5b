// ESLint flat config: typescript-eslint for all code, eslint-plugin-office-addins rules for Office code.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import officeAddins from "eslint-plugin-office-addins";
import commentCitations from "./scripts/eslint/comment-citations.js";
import clientDoor from "./scripts/eslint/client-door.js";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "coverage/**",
      "test-artifacts/**",
      "src/contract/generated/api-types.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["functions/**/*.ts", "taskpane/**/*.{ts,tsx}"],
    plugins: { "office-addins": officeAddins },
    rules: {
      "office-addins/no-context-sync-in-loop": "warn",
      "office-addins/no-office-initialize": "error",
      "office-addins/load-object-before-read": "error",
      "office-addins/call-sync-before-read": "error",
      "office-addins/call-sync-after-load": "error",
      "office-addins/no-navigational-load": "error",
      "office-addins/test-for-null-using-isNullObject": "error",
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // Comments cite the contract, a test, a file or a README section, never an issue number.
    files: ["**/*.{ts,tsx,js,jsx,mjs,cjs}"],
    plugins: {
      kaisha: { rules: { "comment-citations": commentCitations, "client-door": clientDoor } },
    },
    rules: { "kaisha/comment-citations": "error" },
  },
  {
    // Outside src/client/ the client is imported from its door, src/client/index.ts. The one
    // exception: test/client/ unit-tests the client's own modules, so it imports them directly.
    files: ["**/*.{ts,tsx,js,jsx,mjs,cjs}"],
    ignores: ["test/client/**"],
    rules: { "kaisha/client-door": "error" },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: {
      globals: {
        module: "writable",
        require: "readonly",
        __dirname: "readonly",
        process: "readonly",
      },
    },
  },
);
