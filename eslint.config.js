// @ts-check
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["dist/", "dist.*/", ".astro/", ".data/", ".netlify/", "node_modules/", "test-results/", "playwright-report/", "bench/out/", "bench/.starlight/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // Browser code never imports server code (STYLE.md): the server holds secrets and the database.
    files: ["src/islands/**", "src/components/**", "src/stores/**", "src/lib/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/server/**"], message: "Browser and shared code must not import src/server." }] }],
    },
  },
);
