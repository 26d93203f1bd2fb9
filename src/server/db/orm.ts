/**
 * drizzle-orm's query helpers (eq, and, sql...), for all server code.
 *
 * Imported by path, not by package name, on purpose (docs/decisions/0008): Netlify's bundler
 * copies every package a function imports by name into its zip whole, CommonJS and ESM twins
 * alike, but bundles code imported by path, keeping only what is used. The path names the very
 * files the package name resolves to (tests/api/vendored-imports.test.ts checks), so locally both
 * ways load one and the same module.
 */
export * from "../../../node_modules/drizzle-orm/index.js";
