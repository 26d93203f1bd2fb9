/**
 * `npm run book -- <command>`: the book as Markdown files, in the layout of content/book.
 *
 *   export DIR [--site URL]        every live chapter and subsection, with their photos
 *   import DIR [--dry-run]         creates or updates by slug, in one transaction
 *
 * Works against DATABASE_URL, or the embedded database while the server is stopped. Photos are
 * read from and stored in DATA_DIR/uploads, or, with NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN set,
 * in that Netlify site's blob store, where production keeps them.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { exportBook } from "../content/book-export.ts";
import { importBook, type ImportReport } from "../content/book-import.ts";
import { netlifyPhotoStore, usePhotoStore } from "../uploads/photo-store.ts";
import { withDatabase } from "./with-database.ts";

const USAGE = `Usage: npm run book -- <command>
  export DIR [--site URL] [--json]   writes the book into DIR (a new or empty folder); photos the
                                     local photo store lacks are downloaded from --site if given
  import DIR [--dry-run] [--json]    creates or updates chapters and subsections by slug from DIR
                                     (--dry-run: reports what would change and writes nothing)
Photos: DATA_DIR/uploads, or the Netlify site's blob store when NETLIFY_SITE_ID and
NETLIFY_AUTH_TOKEN (a personal access token) are both set.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "dry-run": { type: "boolean", default: false },
    site: { type: "string" },
    json: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const [command, dir, ...rest] = positionals;
if (rest.length > 0) fail(`Unexpected argument "${rest[0]}".`);
if (values.site !== undefined && !URL.canParse(values.site)) fail("--site must be an address such as https://example.com.");

const siteID = process.env.NETLIFY_SITE_ID?.trim();
const token = process.env.NETLIFY_AUTH_TOKEN?.trim();
if (siteID && token) {
  usePhotoStore(netlifyPhotoStore({ siteID, token }));
  if (!values.json) console.error(`Photos: the blob store of Netlify site ${siteID}.`);
}

switch (command) {
  case "export": {
    if (!dir) fail("export needs the folder to write into.");
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const summary = await exportBook(db, dir, { site: values.site });
      if (values.json) console.log(JSON.stringify(summary));
      else console.log(`Exported ${summary.chapters} chapters, ${summary.subsections} subsections and ${summary.photos} photos to ${summary.dir}.`);
      if (summary.missingPhotos.length > 0) {
        console.error(
          `These photos were not found, so they are not in the folder (give --site with the site's address to download them):\n  ${summary.missingPhotos.join("\n  ")}`,
        );
      }
      if (summary.refusedPhotos.length > 0) {
        console.error(
          `These photo addresses hold . or .. parts or an encoded / or \\, so their photos were not copied (they would land outside the folder); choose the photo again in the admin panel:\n  ${summary.refusedPhotos.join("\n  ")}`,
        );
      }
    });
    break;
  }
  case "import": {
    if (!dir) fail("import needs the folder to read.");
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) fail(`${path.resolve(dir)}: no such folder.`);
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const report = await importBook(db, dir, { dryRun: values["dry-run"] });
      console.log(values.json ? JSON.stringify(report) : describe(report));
    });
    break;
  }
  default:
    fail(command ? `Unknown command "${command}".` : "Missing command.");
}

function describe(report: ImportReport): string {
  const count = (items: Array<{ action: string }>, action: string) => items.filter((i) => i.action === action).length;
  const totals = (items: Array<{ action: string }>) =>
    report.dryRun
      ? `${count(items, "created")} to create, ${count(items, "updated")} to update, ${count(items, "unchanged")} unchanged`
      : `${count(items, "created")} created, ${count(items, "updated")} updated, ${count(items, "unchanged")} unchanged`;
  const verb = (action: string) => (report.dryRun && action !== "unchanged" ? `would be ${action}` : action);
  const lines = [
    report.dryRun ? "Dry run: nothing was written." : "Imported.",
    `Chapters: ${totals(report.chapters)}.`,
    ...report.chapters
      .filter((c) => c.action !== "unchanged")
      .map((c) => `  ${c.slug} (${c.level}): ${verb(c.action)}${c.changed.length ? ` (${c.changed.join(", ")})` : ""}`),
    `Subsections: ${totals(report.subsections)}.`,
    ...report.subsections
      .filter((s) => s.action !== "unchanged")
      .map((s) => `  ${s.chapter}/${s.slug}: ${verb(s.action)}${s.changed.length ? ` (${s.changed.join(", ")})` : ""}`),
  ];
  if (report.photos.length > 0) lines.push(`Photos ${report.dryRun ? "to store" : "stored"}: ${report.photos.join(", ")}.`);
  if (report.notInFolder.length > 0) lines.push(`In the database but not in the folder (left as they are): ${report.notInFolder.join(", ")}.`);
  const changed = [...report.chapters, ...report.subsections].some((i) => i.action !== "unchanged");
  if (changed && !report.dryRun) {
    lines.push("A running server on this database shows the changes at once; on Netlify, press Publish in the admin panel.");
  }
  return lines.join("\n");
}
