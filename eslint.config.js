import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import serverValuesInBrowser from "./lint-rules/server-values-in-browser.js";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      ".builds/**",
      "public/build/**",
      "node_modules/**",
      ".cache/**",
      "storage/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/components/ui/link.tsx"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "request",
          property: "formData",
          message:
            "Use readForm(request) from ~/utils/read-form.server: a body that is no form is answered 400, never 500.",
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@remix-run/react",
              importNames: ["Link", "NavLink"],
              message:
                "Use Link and NavLink from ~/components/ui/link: a plain <a> for a path of the site (decision 033).",
            },
          ],
        },
      ],
    },
  },
  {
    // A `.server` module is empty in the browser: its values reach pages through loaders only.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { kallo: { rules: { "server-values-in-browser": serverValuesInBrowser } } },
    rules: { "kallo/server-values-in-browser": "error" },
  },
  {
    files: ["public/**/*.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
);
