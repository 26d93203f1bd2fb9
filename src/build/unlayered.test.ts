import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linkUnlayered, withoutLayers } from "./unlayered.ts";

/** The ids in a selector's specificity, as the polyfill raises it (`:not(#\#)`), with the selector's own. */
const ids = (selector: string) => selector.split("#").length - 1;

describe("withoutLayers", () => {
  const layered =
    "@layer theme,base,components,utilities;" +
    "@layer utilities{.u{color:blue}}" +
    "@layer base{#page .b{color:red}html{background:white}}" +
    "@layer components{.c{color:green}}";
  const out = withoutLayers(layered);
  const selectorOf = (declaration: string) => new RegExp(`([^{}]+)\\{${declaration}\\}`).exec(out)![1]!;

  it("leaves no @layer rule, and every rule with its declarations", () => {
    expect(out).not.toContain("@layer");
    for (const declaration of ["color:blue", "color:red", "background:white", "color:green"]) expect(out).toContain(`{${declaration}}`);
  });

  it("keeps the layers' order in specificity: a later layer's class outweighs an earlier layer's id", () => {
    const [utility, component, base] = [selectorOf("color:blue"), selectorOf("color:green"), selectorOf("color:red")];
    expect(ids(utility)).toBeGreaterThan(ids(component));
    expect(ids(component)).toBeGreaterThan(ids(base));
  });
});

describe("linkUnlayered", () => {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), "unlayered-"));
  afterAll(() => fs.rmSync(site, { recursive: true, force: true }));
  fs.mkdirSync(path.join(site, "_astro"));
  fs.writeFileSync(path.join(site, "_astro/site.abc.css"), "@layer base{p{color:red}}");
  const page = `<head><link rel="stylesheet" href="/_astro/site.abc.css"><link rel="stylesheet" href="https://example.org/x.css"></head>`;

  it("links a copy without layers, named by its content, written once for every page that links the sheet", () => {
    const copies = new Map<string, string>();
    const out = linkUnlayered(site, page, copies);
    const copy = copies.get("/_astro/site.abc.css")!;
    expect(copy).toMatch(/^\/_astro\/site\.abc\.unlayered\.[\w-]{8}\.css$/);
    expect(out).toBe(page.replace("/_astro/site.abc.css", copy));
    expect(fs.readFileSync(path.join(site, copy), "utf8")).toBe("p{color:red}");
    fs.rmSync(path.join(site, copy));
    expect(linkUnlayered(site, page, copies)).toBe(out);
    expect(fs.existsSync(path.join(site, copy))).toBe(false);
  });
});
