// ESLint for the whole tree: TypeScript, React, hooks and accessibility rules.
// Formatting is Prettier's job (.prettierrc.json); unused files, exports and packages are knip's (knip.json).
// Type-aware rules are left out: they would more than double the run on a small machine, and `tsc --noEmit` runs first anyway.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const reactFiles = ["app/**/*.{ts,tsx}", "**/*.tsx"];

export default tseslint.config(
  {
    ignores: ["build/", "public/", "data/", "test-results/", "playwright-report/", ".cache/", "bench/baseline/build/", "bench/results/"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // A leading underscore marks a value left out on purpose, as in `const { id: _omit, ...rest } = row`.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // `interface AppLoadContext extends RequestContext {}` is how Remix's context type is declared.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
    },
  },
  {
    files: reactFiles,
    ...react.configs.flat.recommended,
    settings: { react: { version: "detect" } },
  },
  { files: reactFiles, ...react.configs.flat["jsx-runtime"] },
  { files: reactFiles, ...jsxA11y.flatConfigs.recommended },
  {
    files: reactFiles,
    // The two classic hook rules. The plugin's newer React Compiler rules are left out: the app does not use the compiler.
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // An apostrophe or quote in JSX text renders as itself; only `>` and `}` there are likely slips.
      "react/no-unescaped-entities": ["error", { forbid: [">", "}"] }],
    },
  },
  {
    files: ["tests/e2e/**/*.ts"],
    // Playwright reads a fixture's dependencies from its first parameter's destructuring: `{}` is how a fixture says it needs none.
    rules: { "no-empty-pattern": "off" },
  },
);
