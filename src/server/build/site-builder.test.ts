import { describe, expect, it } from "vitest";
import { inputFiles } from "./site-builder.ts";

describe("a build's stamp", () => {
  it("covers every source the static build reads: the page script, the directives and the build's integrations too", () => {
    const files = inputFiles();
    for (const file of [
      "astro.config.mjs",
      "src/layouts/Base.astro",
      "src/scripts/page.ts",
      "src/directives/interaction.ts",
      "src/build/first-response.ts",
      "src/styles/global.css",
      "src/server/build/snapshot.ts",
    ]) {
      expect(files, file).toContain(file);
    }
    expect(files.filter((file) => file.endsWith(".test.ts"))).toEqual([]);
  });
});
