import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_REMEMBERED_MISSES, StaticSite } from "./static-site.ts";

describe("StaticSite", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-static-"));
  fs.writeFileSync(path.join(dir, "apply.html"), "<h1>Apply</h1>");
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("remembers a bounded number of missing paths, however many are probed", () => {
    const site = new StaticSite(dir);
    for (let i = 0; i < MAX_REMEMBERED_MISSES; i++) expect(site.lookup(`/probe-${i}`)).toBeNull();
    expect(site.rememberedMisses).toBeLessThanOrEqual(MAX_REMEMBERED_MISSES);
    expect(site.rememberedMisses).toBeGreaterThan(0);
    // Files are still found.
    expect(site.lookup("/apply")?.body.toString()).toBe("<h1>Apply</h1>");
  });
});
