// @ts-check
import { defineConfig } from "astro/config";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { interactionIslands } from "./src/directives/integration.ts";
import { bookFont } from "./src/styles/book-font.ts";
import { firstResponse } from "./src/build/first-response.ts";
import { islandRuntimeTrim } from "./src/build/island-runtime-trim.ts";

// The site is fully static: the public pages and the chapter shell are prerendered from a content
// snapshot (see src/server/build/). Everything dynamic lives in netlify/functions.
export default defineConfig({
  site: process.env.SITE_URL || "http://localhost:4321",
  output: "static",
  outDir: process.env.ASTRO_OUT_DIR || "./dist",
  // Each build gets its own cache, so a server rebuilding and a test build never share one.
  cacheDir: process.env.ASTRO_CACHE_DIR || "./node_modules/.astro",
  trailingSlash: "never",
  // Astro's HTML compression drops the line break between a word and an inline link ("See the
  // <a>disclaimer</a>" became "See the<a>..."; withastro/compiler#852, #999, open). Pages are
  // served gzip or brotli, which takes the whitespace down to a few bytes anyway.
  compressHTML: false,
  build: { format: "file" },
  // client:interaction: islands that load when the reader first needs them (issue 13).
  // book-font: the typeface cut to what the site sets (src/styles/book-font.ts).
  // first-response: each reader page carries the CSS it uses inline and the full sheet at its end,
  // and its policy names only its own inline scripts (src/build/first-response.ts, issue 33).
  integrations: [bookFont(), react(), interactionIslands(), firstResponse()],
  // Astro hashes every script it emits (hydration, bundles, is:inline) into a <meta> CSP, so
  // scripts run without 'unsafe-inline'. Styles allow inline (the toasts inject theirs at run
  // time; a style cannot run code). netlify.toml adds, as a header, what a <meta> policy cannot
  // carry (frame-ancestors); browsers enforce both.
  // No 'wasm-unsafe-eval': the search box's static index is searched by plain script (decision 0031).
  security: { csp: { scriptDirective: { resources: ["'self'"] }, styleDirective: { resources: ["'self'", "'unsafe-inline'"] } } },
  // `npm run dev` (src/server/build/dev.ts) serves pages on 4322 with hot reload and hands the API
  // and photos to a running `npm start`.
  server: { port: 4322 },
  // No code blocks in the book, and Shiki's inline styles would not suit the CSP anyway.
  markdown: { syntaxHighlight: false },
  vite: {
    // island-runtime-trim: Astro's island element without what the site never uses (src/build/island-runtime-trim.ts).
    plugins: [tailwindcss(), islandRuntimeTrim()],
    // Imported constants are inlined where they are used, so the page script (src/scripts/page.ts)
    // shares storage keys and event names with the islands without sharing a chunk with them.
    build: { rolldownOptions: { optimization: { inlineConst: true } } },
    server: {
      proxy: {
        "/api": process.env.DEV_API_URL || "http://127.0.0.1:4321",
        "/uploads": process.env.DEV_API_URL || "http://127.0.0.1:4321",
      },
    },
  },
  devToolbar: { enabled: false },
});
