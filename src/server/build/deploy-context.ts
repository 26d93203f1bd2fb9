/**
 * Deploy contexts on Netlify. Only a production build may migrate, seed, record publish state or
 * call the build hook of the production database. Each production build records which database
 * it used (host, port and name: never credentials); a build of any other context (deploy
 * preview, branch deploy) pointed at that same database is refused before it changes anything.
 * With Neon's Netlify integration each preview gets a database branch of its own: a branch
 * carries a copy of this record, but its own host, so it passes.
 */
import { sql } from "../db/orm.ts";
import { siteIdentity } from "../db/schema.ts";
import type { Database } from "../db/types.ts";

export class DeployContextError extends Error {
  override name = "DeployContextError";
}

/** What names a database: its host (without Neon's "-pooler" suffix), port and database name. */
export function databaseIdentity(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/-pooler(?=\.)/, "");
  return `${host}:${parsed.port || "5432"}/${decodeURIComponent(parsed.pathname.slice(1))}`;
}

/** The database production's builds recorded, if any. */
export async function productionDatabase(db: Database): Promise<string | null> {
  const result = (await db.execute(sql`select to_regclass('site_identity')::text as name`)) as unknown as { rows: Array<{ name: string | null }> };
  if (!result.rows[0]?.name) return null;
  const [row] = await db.select().from(siteIdentity);
  return row?.productionDatabase ?? null;
}

/**
 * Before a Netlify build touches the database: refuses a non-production build pointed at the
 * production database. Answers whether this build is the production build.
 */
export async function checkDeployContext(db: Database, context: string | undefined, databaseUrl: string): Promise<boolean> {
  if (context === "production") return true;
  const production = await productionDatabase(db);
  if (production && production === databaseIdentity(databaseUrl)) {
    throw new DeployContextError(
      `This ${context ?? "non-production"} build's DATABASE_URL points at the production database (${production}). ` +
        "Nothing was changed. Give deploy previews a database of their own: with Neon's Netlify integration each preview gets a branch " +
        "(see README, Deploying to Netlify with Neon), or set DATABASE_URL for the Deploy Previews context to another database.",
    );
  }
  return false;
}

/** The production build records its database (after migrating, so the table exists). */
export async function recordProductionDatabase(db: Database, databaseUrl: string): Promise<void> {
  const productionDatabase = databaseIdentity(databaseUrl);
  await db
    .insert(siteIdentity)
    .values({ id: 1, productionDatabase })
    .onConflictDoUpdate({ target: siteIdentity.id, set: { productionDatabase, recordedAt: new Date() } });
}
