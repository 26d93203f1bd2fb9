/**
 * Configuration, read from the environment and validated once. A bad value fails at start with the
 * variable named and what to do about it. Every variable is listed in README.md.
 *
 * Where we run is read from what each platform itself provides, never from build-only variables:
 * - Netlify's Functions runtime (v2) defines a global `Netlify` (`Netlify.env`, `Netlify.context`)
 *   before any function code runs. Functions see only the variables set in the Netlify UI with the
 *   Functions scope and a few read-only ones (URL, SITE_ID, SITE_NAME); NETLIFY, CONTEXT and
 *   netlify.toml's [build.environment] exist during the build only.
 * - Netlify's build sets NETLIFY=true and CONTEXT (production, deploy-preview, branch-deploy...).
 * - Anything else is the local host, a CLI or a test.
 * On Netlify nothing falls back to local things: no embedded database, no local disk, no secret
 * made up on the spot. A missing setting is an error naming the variable.
 */
import path from "node:path";
import { z } from "../lib/zod.ts";

export type Platform = "local" | "netlify-build" | "netlify-functions";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const schema = z.object({
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  DATABASE_DRIVER: optionalText.pipe(z.enum(["pglite", "pg", "neon"]).optional()),
  DATA_DIR: z.string().trim().min(1).default("./.data"),
  SITE_DIR: optionalText,
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  CONTEXT: optionalText,
  SITE_URL: optionalText.pipe(z.url("must be a URL such as https://example.com").optional()),
  // Netlify's read-only variable: the site's main address (build and functions).
  URL: optionalText.pipe(z.url().optional()).catch(undefined),
  SESSION_SECRET: optionalText.pipe(
    z
      .string()
      .refine((value) => Buffer.byteLength(value) >= 32, "must be at least 32 bytes (try: openssl rand -base64 48)")
      .optional(),
  ),
  COOKIE_SECURE: optionalText.pipe(z.enum(["true", "false"]).optional()),
  // Checked in readConfig, not here: a malformed one must not stop the site (see buildHookProblem).
  BUILD_HOOK_URL: optionalText,
  RETENTION_UNFINISHED_SCAN_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  RETENTION_DELETED_CONTENT_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
  RETENTION_UNUSED_PHOTO_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  RETENTION_READING_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  RETENTION_READING_TOTALS_DAYS: z.coerce.number().int().min(1).max(3650).default(730),
  TRUSTED_PROXY: optionalText.pipe(
    z
      .string()
      .transform((value) => value.split(",").map((one) => one.trim()).filter(Boolean))
      .pipe(z.array(z.ipv4().or(z.ipv6()), { error: "must be the proxy's IP address (or several, comma-separated)" }))
      .optional(),
  ),
});

/** How long what nobody needs any more is kept, in days (src/server/maintenance/retention.ts). */
export interface RetentionPolicy {
  unfinishedScanDays: number;
  deletedContentDays: number;
  unusedPhotoDays: number;
  /** A member's reading sessions (the raw record of their heartbeats). */
  readingDays: number;
  /** A member's daily reading totals (reading_days). */
  readingTotalsDays: number;
}

export type Config = {
  platform: Platform;
  /** The deploy context: Netlify's CONTEXT at build, the request's deploy in a function; undefined locally. */
  deployContext: string | undefined;
  databaseUrl: string | undefined;
  driver: "pglite" | "pg" | "neon";
  dataDir: string;
  /** Where the local host keeps and serves the built site; by default netlify.toml's publish folder. */
  siteDir: string | undefined;
  port: number;
  host: string;
  /** The public address (SITE_URL, or Netlify's URL), if known. */
  siteUrl: string | undefined;
  /** The signing secret for session tokens; when unset locally, one is made and kept in DATA_DIR. */
  sessionSecret: string | undefined;
  /** Whether cookies are Secure (and __Host- prefixed): on Netlify or an https SITE_URL by default. */
  secureCookies: boolean;
  /** Netlify build hook that republishes the static pages after content changes (Netlify only). */
  buildHookUrl: string | undefined;
  /**
   * Why BUILD_HOOK_URL is set but unusable (not an https:// URL), in words for the publish status;
   * `buildHookUrl` is then undefined. Like a missing hook, only republishing the static pages fails.
   */
  buildHookProblem?: string;
  /** Local host only: proxies whose X-Forwarded-For names the client (TRUSTED_PROXY). */
  trustedProxies: string[];
  /** How long what nobody needs any more is kept (src/server/maintenance/retention.ts). */
  retention: RetentionPolicy;
};

/** What the publish status and the function log say of a BUILD_HOOK_URL that is not an https:// URL. */
export const MALFORMED_HOOK =
  "BUILD_HOOK_URL is set, but not to an https:// URL, so content changes cannot reach the static pages (chapter lists, sitemap, search index). Set it to the build hook's URL as Netlify shows it (Site configuration > Build & deploy > Build hooks), with the Functions scope, then deploy the site again (which also publishes the waiting changes).";

export class ConfigError extends Error {
  override name = "ConfigError";
}

interface NetlifyGlobal {
  env: { toObject(): Record<string, string> };
}

/** The `Netlify` global of Netlify's Functions runtime, when this code runs there. */
function netlifyGlobal(): NetlifyGlobal | undefined {
  const candidate = (globalThis as { Netlify?: NetlifyGlobal }).Netlify;
  return candidate && typeof candidate.env?.toObject === "function" ? candidate : undefined;
}

/** Where this code runs (see the top of this file). */
export function currentPlatform(env: Record<string, string | undefined> = process.env): Platform {
  if (netlifyGlobal()) return "netlify-functions";
  return env.NETLIFY === "true" ? "netlify-build" : "local";
}

/** The environment this platform gives the code: `Netlify.env` in a function, process.env elsewhere. */
export function platformEnv(): Record<string, string | undefined> {
  return netlifyGlobal()?.env.toObject() ?? process.env;
}

/** Which driver a URL calls for: none means the embedded PGlite, a Neon host means the Neon driver. */
export function driverFor(url: string | undefined, forced?: Config["driver"]): Config["driver"] {
  if (forced) return forced;
  if (!url) return "pglite";
  return new URL(url).hostname.endsWith(".neon.tech") ? "neon" : "pg";
}

const WHERE_TO_SET =
  "Set it in the Netlify UI (Site configuration > Environment variables) with the Functions scope; variables in netlify.toml never reach functions.";

export function readConfig(
  env: Record<string, string | undefined> = platformEnv(),
  platform: Platform = currentPlatform(env),
  deployContext?: string,
): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(
      `Configuration: ${issue.path.join(".")} ${issue.message}. Fix it in the environment (see the configuration table in README.md).`,
    );
  }
  const values = parsed.data;
  const driver = driverFor(values.DATABASE_URL, values.DATABASE_DRIVER);
  if (driver !== "pglite" && !values.DATABASE_URL) {
    throw new ConfigError(`Configuration: DATABASE_DRIVER=${driver} needs DATABASE_URL to be set.`);
  }
  const onNetlify = platform !== "local";
  const context = platform === "netlify-build" ? values.CONTEXT : deployContext;
  if (onNetlify && driver === "pglite") {
    throw new ConfigError(
      `Configuration: DATABASE_URL is not set. On Netlify the site needs a PostgreSQL (Neon) database, never the embedded one: set DATABASE_URL to its pooled connection string. ${WHERE_TO_SET}`,
    );
  }
  if (platform === "netlify-functions" && !values.SESSION_SECRET) {
    throw new ConfigError(
      `Configuration: SESSION_SECRET is not set. On Netlify set it to at least 32 random bytes (openssl rand -base64 48). ${WHERE_TO_SET}`,
    );
  }
  // A production deploy without BUILD_HOOK_URL, or with a malformed one, still serves everything:
  // only publishing a change of the static pages needs it, and the publish status says so
  // (src/server/publish/state.ts).
  const hookValid = values.BUILD_HOOK_URL === undefined || z.url({ protocol: /^https$/ }).safeParse(values.BUILD_HOOK_URL).success;
  const siteUrl = values.SITE_URL ?? (onNetlify ? values.URL : undefined);
  return {
    platform,
    deployContext: context,
    databaseUrl: values.DATABASE_URL,
    driver,
    dataDir: path.resolve(values.DATA_DIR),
    siteDir: values.SITE_DIR ? path.resolve(values.SITE_DIR) : undefined,
    port: values.PORT,
    host: values.HOST,
    siteUrl,
    sessionSecret: values.SESSION_SECRET,
    secureCookies: values.COOKIE_SECURE ? values.COOKIE_SECURE === "true" : onNetlify || (siteUrl?.startsWith("https://") ?? false),
    buildHookUrl: hookValid ? values.BUILD_HOOK_URL : undefined,
    ...(hookValid ? {} : { buildHookProblem: MALFORMED_HOOK }),
    trustedProxies: values.TRUSTED_PROXY ?? [],
    retention: {
      unfinishedScanDays: values.RETENTION_UNFINISHED_SCAN_DAYS,
      deletedContentDays: values.RETENTION_DELETED_CONTENT_DAYS,
      unusedPhotoDays: values.RETENTION_UNUSED_PHOTO_DAYS,
      readingDays: values.RETENTION_READING_DAYS,
      readingTotalsDays: values.RETENTION_READING_TOTALS_DAYS,
    },
  };
}

let cached: Config | undefined;
let override: Config | undefined;

/**
 * The configuration in force: the one a test installed, or the platform's, read on first use
 * (in a Netlify Function, per deploy context: see src/server/runtime/serve.ts).
 */
export function config(): Config {
  if (override) return override;
  cached ??= readConfig();
  return cached;
}

/** Reads and keeps the configuration of a Netlify Function serving `deployContext`. */
export function loadFunctionConfig(deployContext: string | undefined): Config {
  if (override) return override;
  if (!cached || cached.deployContext !== deployContext) {
    cached = readConfig(platformEnv(), "netlify-functions", deployContext);
    if (cached.buildHookProblem) console.warn(`Configuration: ${cached.buildHookProblem}`);
    else if (deployContext === "production" && !cached.buildHookUrl) {
      console.warn(
        `Configuration: BUILD_HOOK_URL is not set, so content changes cannot republish the static pages (the admin panel's publish status says so too). Create a build hook (Site configuration > Build & deploy > Build hooks) and set BUILD_HOOK_URL to its URL. ${WHERE_TO_SET}`,
      );
    }
  }
  return cached;
}

/** Replaces the process's configuration (tests); `undefined` goes back to the environment's. */
export function useConfig(next: Config | undefined): void {
  override = next;
  cached = undefined;
}
