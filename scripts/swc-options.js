// How TypeScript becomes JavaScript for webpack (swc-loader) and jest (@swc/jest): tsconfig.json's emit settings in swc's terms.
"use strict";

/**
 * Transpile only, as tsc would emit under tsconfig.json (target ES2022, jsx react-jsx): the type
 * check is `tsc --noEmit` (npm run typecheck). `.ts` files are parsed without TSX, so a
 * `<T>value` assertion keeps its TypeScript meaning; only `.tsx` files hold JSX.
 * `development: false`: swc-loader would otherwise switch a development build to React's
 * jsxDEV runtime, which tsc's react-jsx never emitted.
 */
function swcOptions(file) {
  if (file !== "ts" && file !== "tsx") throw new Error(`swcOptions: ts or tsx, not ${file}`);
  return {
    jsc: {
      parser: { syntax: "typescript", tsx: file === "tsx" },
      target: "es2022",
      transform: { react: { runtime: "automatic", development: false } },
    },
  };
}

module.exports = { swcOptions };
