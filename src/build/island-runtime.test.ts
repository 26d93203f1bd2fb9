import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import islandScript from "astro/runtime/server/astro-island.prebuilt.js";
import { afterAll, describe, expect, it } from "vitest";
import { pageScriptFinder, withoutInlineRuntime } from "./island-runtime.ts";

const site = fs.mkdtempSync(path.join(os.tmpdir(), "island-runtime-"));
fs.mkdirSync(path.join(site, "_astro"));
// A page script that brings the runtime (as minified: backticks), and one that does not.
fs.writeFileSync(path.join(site, "_astro/page.js"), "customElements.get(`astro-island`)||customElements.define(`astro-island`,a);");
fs.writeFileSync(path.join(site, "_astro/other.js"), "console.log(1);");
afterAll(() => fs.rmSync(site, { recursive: true }));

const interaction = `<script>(()=>{var m=(p,s,t)=>{};(self.Astro||(self.Astro={})).interaction=m;window.dispatchEvent(new Event("astro:interaction"));})();\n</script>`;
const load = `<script>(()=>{var l=async t=>{await(await t())()};(self.Astro||(self.Astro={})).load=l;window.dispatchEvent(new Event("astro:load"));})();</script>`;
const islands = `<style>astro-island{display:contents}</style>${interaction}<script>${islandScript}</script><astro-island client="interaction"></astro-island>${load}<astro-island client="load"></astro-island>`;
const page = (script: string) => `<head><script>theme()</script><script type="module" src="/_astro/${script}"></script></head><body>${islands}</body>`;

describe("withoutInlineRuntime", () => {
  const pageScriptOf = pageScriptFinder(site);
  const strip = (html: string) => withoutInlineRuntime(html, pageScriptOf);

  it("takes Astro's inline runtime and interaction directive out of a page whose script brings them, and nothing else", () => {
    expect(strip(page("page.js"))).toBe(
      `<head><script>theme()</script><script type="module" src="/_astro/page.js"></script></head><body><style>astro-island{display:contents}</style><astro-island client="interaction"></astro-island>${load}<astro-island client="load"></astro-island></body>`,
    );
  });

  it("leaves a page whose scripts do not bring the runtime, or that has no island, as it is", () => {
    expect(strip(page("other.js"))).toBe(page("other.js"));
    expect(strip(page("missing.js"))).toBe(page("missing.js"));
    const noIsland = `<script type="module" src="/_astro/page.js"></script><p>text</p>`;
    expect(strip(noIsland)).toBe(noIsland);
  });
});
