import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { trimIslandRuntime } from "./island-runtime-trim.ts";

const runtime = fs.readFileSync(createRequire(import.meta.url).resolve("astro/runtime/server/astro-island.js"), "utf8");

describe("trimIslandRuntime", () => {
  it("takes out of Astro's island element what the site never uses, and keeps the default export's guard", () => {
    const trimmed = trimIslandRuntime(runtime);
    expect(trimmed.length).toBeLessThan(runtime.length);
    for (const gone of ["astro:after-swap", "astro:unmount", "before-hydration-url", 'componentExport.split(".")', "astro:hydration-error"]) {
      expect(runtime).toContain(gone);
      expect(trimmed).not.toContain(gone);
    }
    expect(trimmed).toContain("FORBIDDEN_COMPONENT_EXPORT_KEYS.has(componentExport)");
    expect(trimmed).toContain("console.error(`[astro-island] Error hydrating ${componentUrl}`, error);");
    expect(trimmed).toContain('customElements.define("astro-island", AstroIsland)');
    // Still a script that parses.
    expect(() => new Function(trimmed.replace(/process\.env\.NODE_ENV/g, '"production"'))).not.toThrow();
  });

  it("fails the build when Astro's text has changed, naming what it looked for", () => {
    expect(() => trimIslandRuntime(runtime.replace('"astro:after-swap", this.unmount);', '"astro:swap", this.unmount);'))).toThrow(
      /unmounting on astro:after-swap is not where/,
    );
  });
});
