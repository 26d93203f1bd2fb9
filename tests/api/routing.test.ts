import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { config } from "../../netlify/functions/chapter-page.ts";
import { config as apiConfig } from "../../netlify/functions/api.ts";
import { config as uploadConfig } from "../../netlify/functions/upload.ts";
import { API_ROUTES, UPLOAD_PATH } from "../../src/server/api/routes.ts";
import { PREVIEW_PATH } from "../../src/server/pages/preview-page.ts";
import { projectRoot } from "../../src/server/host/netlify-config.ts";
import { chapterInput } from "../../src/lib/content-schemas.ts";
import { RESERVED_SLUGS } from "../../src/lib/slug.ts";
import { expectEveryNameRefused, topLevelNamesOf } from "../support/top-level-names.ts";

describe("routing", () => {
  it("keeps every single-segment redirect out of the /{slug} page function (on Netlify a function's path comes first)", () => {
    const { redirects } = parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as {
      redirects: Array<{ from: string }>;
    };
    const singleSegment = redirects.map((r) => r.from).filter((from) => /^\/[^/*:]+$/.test(from));
    expect(singleSegment.length).toBeGreaterThan(0);
    expect([config.excludedPath].flat().sort()).toEqual(singleSegment.sort());
  });

  it("serves every API address from the one API function's table, but the image upload, which has its own", () => {
    expect(apiConfig.path).toContain("/api/*");
    expect(apiConfig.excludedPath).toEqual([UPLOAD_PATH]);
    expect(uploadConfig.path).toBe(UPLOAD_PATH);
    expect(API_ROUTES.map(([pattern]) => pattern)).not.toContain(UPLOAD_PATH);
    // The table's patterns are the addresses the API function claims.
    const claimed = [apiConfig.path].flat().map((pathname) => new URLPattern({ pathname: pathname! }));
    const excluded = [apiConfig.excludedPath].flat().map((pathname) => new URLPattern({ pathname: pathname! }));
    for (const [pattern] of API_ROUTES) {
      const sample = pattern.replace(/:\w+/g, "x");
      expect(claimed.some((p) => p.test({ pathname: sample })) && !excluded.some((p) => p.test({ pathname: sample })), pattern).toBe(true);
    }
    expect([config.path].flat()).toContain(`${PREVIEW_PATH}:id`);
  });

  it("reserves every address the site's own pages, public files, redirects and functions hold, so no chapter hides behind one", async () => {
    const { redirects } = parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as { redirects: Array<{ from: string }> };
    const functionPaths = await Promise.all(
      fs.readdirSync(path.join(projectRoot, "netlify/functions")).map(async (file) => {
        const { config: fnConfig } = (await import(path.join(projectRoot, "netlify/functions", file))) as { config?: { path?: string | string[] } };
        return [fnConfig?.path ?? []].flat();
      }),
    );
    const firstSegment = (address: string) => address.split("/")[1]!;
    const routed = [...redirects.map((r) => r.from), ...functionPaths.flat(), ...API_ROUTES.map(([pattern]) => pattern), UPLOAD_PATH]
      .map(firstSegment)
      .filter((name) => name !== "" && !name.startsWith(":") && name !== "*");
    expectEveryNameRefused(topLevelNamesOf(path.join(projectRoot, "src/pages")), "src/pages");
    expectEveryNameRefused(topLevelNamesOf(path.join(projectRoot, "public")), "public/");
    expectEveryNameRefused([...new Set(routed)], "netlify.toml and the functions' paths");
    // What the build adds beside them (tests/integration/locked-content.test.ts checks a real build).
    expectEveryNameRefused(["_astro", "search-index"], "the build's own folders");

    const chapter = { title: "T", content: "C", readingTime: 5, order: 1, level: "Operator" };
    for (const slug of RESERVED_SLUGS) {
      const parsed = chapterInput.safeParse({ ...chapter, slug });
      expect(parsed.success, slug).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.message), slug).toEqual([`The site itself uses the address /${slug}; choose another slug`]);
    }
    expect(chapterInput.safeParse({ ...chapter, slug: "admin-notes" }).success).toBe(true);
    expect(chapterInput.safeParse({ ...chapter, slug: "images-of-home" }).success).toBe(true);
  });
});
