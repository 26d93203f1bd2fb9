import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { config } from "../../netlify/functions/chapter-page.ts";
import { projectRoot } from "../../src/server/host/netlify-config.ts";
import { chapterInput } from "../../src/lib/content-schemas.ts";
import { RESERVED_SLUGS, SLUG_PATTERN } from "../../src/lib/slug.ts";

describe("routing", () => {
  it("keeps every single-segment redirect out of the /{slug} page function (on Netlify a function's path comes first)", () => {
    const { redirects } = parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as {
      redirects: Array<{ from: string }>;
    };
    const singleSegment = redirects.map((r) => r.from).filter((from) => /^\/[^/*:]+$/.test(from));
    expect(singleSegment.length).toBeGreaterThan(0);
    expect([config.excludedPath].flat().sort()).toEqual(singleSegment.sort());
  });

  it("reserves every address the site's own pages, redirects and functions hold, so no chapter hides behind one", async () => {
    const pages = fs
      .readdirSync(path.join(projectRoot, "src/pages"))
      .map((file) => file.replace(/\.(astro|ts)$/, ""))
      .filter((name) => SLUG_PATTERN.test(name));
    const { redirects } = parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as { redirects: Array<{ from: string }> };
    const redirected = redirects.map((r) => r.from.split("/")[1]!).filter((name) => SLUG_PATTERN.test(name));
    const functionPaths = await Promise.all(
      fs.readdirSync(path.join(projectRoot, "netlify/functions")).map(async (file) => {
        const { config: fnConfig } = (await import(path.join(projectRoot, "netlify/functions", file))) as { config?: { path?: string | string[] } };
        return [fnConfig?.path ?? []].flat().map((p) => p.split("/")[1]!).filter((name) => SLUG_PATTERN.test(name));
      }),
    );
    for (const name of new Set([...pages, ...redirected, ...functionPaths.flat()])) expect(RESERVED_SLUGS, name).toContain(name);
    const chapter = { title: "T", content: "C", readingTime: 5, order: 1, level: "Operator" };
    for (const slug of RESERVED_SLUGS) {
      const parsed = chapterInput.safeParse({ ...chapter, slug });
      expect(parsed.success, slug).toBe(false);
      expect(parsed.error?.issues[0]?.message, slug).toContain(`"${slug}" is the address of a page of the site`);
    }
    expect(chapterInput.safeParse({ ...chapter, slug: "admin-notes" }).success).toBe(true);
  });
});
