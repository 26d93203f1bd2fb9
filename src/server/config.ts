/**
 * Configuration, read from the environment and validated once. A bad value fails at start with the
 * variable named and what to do about it. Every variable is listed in README.md.
 */
import path from "node:path";
import { z } from "zod";

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
  NETLIFY: optionalText,
  SITE_URL: optionalText.pipe(z.url("must be a URL such as https://example.com").optional()),
  SESSION_SECRET: optionalText.pipe(
    z
      .string()
      .refine((value) => Buffer.byteLength(value) >= 32, "must be at least 32 bytes (try: openssl rand -base64 48)")
      .optional(),
  ),
  COOKIE_SECURE: optionalText.pipe(z.enum(["true", "false"]).optional()),
  BUILD_HOOK_URL: optionalText.pipe(z.url({ protocol: /^https$/, error: "must be an https:// URL (a Netlify build hook)" }).optional()),
});

export type Config = {
  databaseUrl: string | undefined;
  driver: "pglite" | "pg" | "neon";
  dataDir: string;
  /** Where the local host keeps and serves the built site; by default netlify.toml's publish folder. */
  siteDir: string | undefined;
  port: number;
  host: string;
  /** The signing secret for session tokens; when unset locally, one is made and kept in DATA_DIR. */
  sessionSecret: string | undefined;
  /** Whether cookies are Secure (and __Host- prefixed): on Netlify or an https SITE_URL by default. */
  secureCookies: boolean;
  /** Running on Netlify (production-like: a session secret is required). */
  onNetlify: boolean;
  /** Netlify build hook that republishes the static pages after content changes (Netlify only). */
  buildHookUrl: string | undefined;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Which driver a URL calls for: none means the embedded PGlite, a Neon host means the Neon driver. */
export function driverFor(url: string | undefined, forced?: Config["driver"]): Config["driver"] {
  if (forced) return forced;
  if (!url) return "pglite";
  return new URL(url).hostname.endsWith(".neon.tech") ? "neon" : "pg";
}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
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
  if (driver === "pglite" && values.NETLIFY) {
    throw new ConfigError(
      "Configuration: DATABASE_URL is not set. On Netlify the site needs a PostgreSQL (Neon) database: set DATABASE_URL in the site's environment variables.",
    );
  }
  if (values.NETLIFY && !values.SESSION_SECRET) {
    throw new ConfigError(
      "Configuration: SESSION_SECRET is not set. On Netlify set it to at least 32 random bytes (openssl rand -base64 48) in the site's environment variables.",
    );
  }
  return {
    databaseUrl: values.DATABASE_URL,
    driver,
    dataDir: path.resolve(values.DATA_DIR),
    siteDir: values.SITE_DIR ? path.resolve(values.SITE_DIR) : undefined,
    port: values.PORT,
    host: values.HOST,
    sessionSecret: values.SESSION_SECRET,
    secureCookies: values.COOKIE_SECURE
      ? values.COOKIE_SECURE === "true"
      : Boolean(values.NETLIFY) || (values.SITE_URL?.startsWith("https://") ?? false),
    onNetlify: Boolean(values.NETLIFY),
    buildHookUrl: values.BUILD_HOOK_URL,
  };
}

let cached: Config | undefined;

/** The process's configuration, read on first use. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}

/** Replaces the process's configuration (tests). */
export function useConfig(next: Config): void {
  cached = next;
}
