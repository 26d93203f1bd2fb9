/**
 * `npm run build` (also Netlify's build command): migrate the configured database, seed it if it
 * has never held a chapter, then build the static site into the publish folder (or SITE_DIR).
 * On Netlify only the production build records publish state (and may call the build hook); a
 * build of another deploy context pointed at the production database is refused before anything
 * changes (deploy-context.ts).
 */
import path from "node:path";
import { withDatabase } from "../cli/with-database.ts";
import { config } from "../config.ts";
import { seedIfEmpty } from "../content/seed.ts";
import { readNetlifyConfig } from "../host/netlify-config.ts";
import { publishedByBuild } from "../publish/netlify-build.ts";
import { checkDeployContext, recordProductionDatabase } from "./deploy-context.ts";
import { buildSite } from "./site-builder.ts";

await withDatabase(async ({ db, migrate }) => {
  const settings = config();
  const onNetlify = settings.platform === "netlify-build";
  const production = onNetlify && (await checkDeployContext(db, settings.deployContext, settings.databaseUrl!));
  if (onNetlify) console.log(`Netlify build, deploy context: ${settings.deployContext ?? "unknown"}.`);
  await migrate();
  if (production) await recordProductionDatabase(db, settings.databaseUrl!);
  const seeded = await seedIfEmpty(db);
  if (seeded) console.log(`Loaded the seed book: ${seeded.inserted} chapters.`);
  const build = () =>
    buildSite({
      db,
      outDir: settings.siteDir ?? readNetlifyConfig().publish,
      workDir: path.join(settings.dataDir, "build"),
      log: console.log,
    });
  // In production the admin panel's publish state follows the build (see src/server/publish).
  if (production) await publishedByBuild(db, build);
  else await build();
});
