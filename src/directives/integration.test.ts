import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listsViewFile, moduleClosure, withIslandPrefetch } from "./integration.ts";

const site = fs.mkdtempSync(path.join(os.tmpdir(), "island-prefetch-"));
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
  fs.writeFileSync(path.join(site, file), text);
};
write("_astro/Navigator.js", `import{a}from"./react.js";import"./store.js";const later=()=>import("./admin.js");`);
write("_astro/react.js", `import{b}from"./scheduler.js";export const a=1;`);
write("_astro/scheduler.js", `export const b=1;`);
write("_astro/store.js", `import{a}from"./react.js";`);
write("_astro/client.js", `import{a}from"./react.js";`);
write("_astro/Admin.js", `export default 1;`);
afterAll(() => fs.rmSync(site, { recursive: true, force: true }));

describe("moduleClosure", () => {
  it("follows static imports, each file once, and leaves dynamic imports to their time", () => {
    expect(moduleClosure(site, ["/_astro/Navigator.js"]).sort()).toEqual(["/_astro/Navigator.js", "/_astro/react.js", "/_astro/scheduler.js", "/_astro/store.js"]);
  });
});

describe("withIslandPrefetch", () => {
  const island = (client: string, component: string) =>
    `<astro-island uid="x" component-url="${component}" renderer-url="/_astro/client.js" ssr client="${client}"></astro-island>`;

  it("prefetches every file a client:interaction island loads, once, from a template at the end of <head> (the page script adds it after load)", () => {
    const html = `<html><head><title>t</title></head><body>${island("interaction", "/_astro/Navigator.js")}</body></html>`;
    const out = withIslandPrefetch(site, html);
    const template = /<template id="island-files">(.*?)<\/template><\/head>/.exec(out);
    expect(template).not.toBeNull();
    const links = [...template![1]!.matchAll(/<link rel="prefetch" href="([^"]+)" as="script" crossorigin>/g)].map((m) => m[1]).sort();
    expect(links).toEqual(["/_astro/Navigator.js", "/_astro/client.js", "/_astro/react.js", "/_astro/scheduler.js", "/_astro/store.js"]);
    // Nothing outside the template: in the HTML itself they would be fetched during the first paint.
    expect(out.replace(template![0], "")).not.toContain("prefetch");
  });

  it("leaves out the files an island hydrating at once loads anyway", () => {
    const html = `<html><head></head><body>${island("load", "/_astro/store.js")}${island("interaction", "/_astro/Navigator.js")}</body></html>`;
    const links = [...withIslandPrefetch(site, html).matchAll(/<link rel="prefetch" href="([^"]+)"/g)].map((m) => m[1]).sort();
    expect(links).toEqual(["/_astro/Navigator.js"]);
  });

  it("preloads the script that shows a level's whole list, first, on a page with the navigator's drawer list, as the classic script it is", () => {
    const drawer = `<html><head></head><body>${island("interaction", "/_astro/Navigator.js")}<ol id="drawer-list"></ol></body></html>`;
    const links = (html: string, listsView: string | null) => [...withIslandPrefetch(site, html, listsView).matchAll(/<link rel="(?:prefetch|preload)" href="([^"]+)" as="script"(?: crossorigin)?>/g)].map((m) => m[0]);
    expect(links(drawer, "/_astro/chapter-lists-view-Ab1-2.js")[0]).toBe('<link rel="preload" href="/_astro/chapter-lists-view-Ab1-2.js" as="script">');
    // Not on a page without the navigator, nor where the build made no such script.
    expect(links(drawer.replace(' id="drawer-list"', ""), "/_astro/chapter-lists-view-Ab1-2.js").join()).not.toContain("chapter-lists-view");
    expect(links(drawer, null).join()).not.toContain("chapter-lists-view");
    write("_astro/chapter-lists-view-Xy_9.js", "");
    expect(listsViewFile(site)).toBe("/_astro/chapter-lists-view-Xy_9.js");
  });

  it("leaves a page without such islands as it was (a client:load island fetches its own files)", () => {
    const html = `<html><head></head><body>${island("load", "/_astro/Admin.js")}</body></html>`;
    expect(withIslandPrefetch(site, html)).toBe(html);
  });
});
