import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { config } from "../../netlify/functions/chapter-page.ts";
import { projectRoot } from "../../src/server/host/netlify-config.ts";

describe("routing", () => {
  it("keeps every single-segment redirect out of the /{slug} page function (on Netlify a function's path comes first)", () => {
    const { redirects } = parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as {
      redirects: Array<{ from: string }>;
    };
    const singleSegment = redirects.map((r) => r.from).filter((from) => /^\/[^/*:]+$/.test(from));
    expect(singleSegment.length).toBeGreaterThan(0);
    expect([config.excludedPath].flat().sort()).toEqual(singleSegment.sort());
  });
});
