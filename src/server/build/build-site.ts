/**
 * `npm run build` (also Netlify's build command): migrate the configured database, seed it if it
 * has never held a chapter, then build the static site into the publish folder (or SITE_DIR).
 */
import path from "node:path";
import { withDatabase } from "../cli/with-database.ts";
import { config } from "../config.ts";
import { seedIfEmpty } from "../content/seed.ts";
import { readNetlifyConfig } from "../host/netlify-config.ts";
import { buildSite } from "./site-builder.ts";
import { publishedByBuild } from "../publish/netlify-build.ts";

await withDatabase(async ({ db, migrate }) => {
  await migrate();
  const seeded = await seedIfEmpty(db);
  if (seeded) console.log(`Loaded the seed book: ${seeded.inserted} chapters.`);
  const build = () =>
    buildSite({
      db,
      outDir: config().siteDir ?? readNetlifyConfig().publish,
      workDir: path.join(config().dataDir, "build"),
      log: console.log,
    });
  // On Netlify the admin panel's publish state follows the build (see src/server/publish).
  await (config().onNetlify ? publishedByBuild(db, build) : build());
});
