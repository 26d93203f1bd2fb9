import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/server/host/netlify-config.ts";
import { PAGE_SECURITY_HEADERS } from "../../src/server/pages/chapter-page.ts";

describe("security headers", () => {
  const { headers } = parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as {
    headers: Array<{ for: string; values: Record<string, string> }>;
  };
  const site = headers.find((rule) => rule.for === "/*")!.values;

  it("pages rendered by functions send exactly netlify.toml's headers for static pages", () => {
    expect(PAGE_SECURITY_HEADERS).toEqual(site);
  });

  it("forbid framing, sniffing and plugins, and keep HSTS at a year", () => {
    expect(site["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(site["Content-Security-Policy"]).toContain("object-src 'none'");
    // Scripts are governed by each page's <meta> policy (hashes); the header must not block them.
    expect(site["Content-Security-Policy"]).not.toMatch(/default-src|script-src|unsafe-inline/);
    expect(site["X-Content-Type-Options"]).toBe("nosniff");
    expect(site["Strict-Transport-Security"]).toMatch(/max-age=31536000/);
    expect(site["Referrer-Policy"]).toBeTruthy();
    expect(site["Permissions-Policy"]).toContain("camera=()");
  });
});
