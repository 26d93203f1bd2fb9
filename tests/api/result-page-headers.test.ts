/**
 * The private result page (issue 15; issue 22, point 12): every address that serves its file,
 * /assessment/result, the built file's own name /assessment/result.html and the address with a
 * trailing slash, answers netlify.toml's noindex and no-store, through the full routing and the
 * node:http fast path of the local host alike. (tests/parity compares Netlify's own answers.)
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchHandler, createHandler, type HostOptions } from "../../src/server/host/app.ts";
import { readNetlifyConfig } from "../../src/server/host/netlify-config.ts";
import { StaticSite } from "../../src/server/host/static-site.ts";

const ADDRESSES = ["/assessment/result", "/assessment/result.html", "/assessment/result/"];

describe("the result page's headers", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-result-"));
  let options: HostOptions;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, "assessment"));
    fs.writeFileSync(path.join(dir, "assessment", "result.html"), "<!doctype html><h1>Your Scan Result</h1>");
    fs.writeFileSync(path.join(dir, "assessment.html"), "<!doctype html><h1>The Scan</h1>");
    fs.writeFileSync(path.join(dir, "404.html"), "<!doctype html><h1>404 Page Not Found</h1>");
    const site = new StaticSite(dir);
    options = { netlify: readNetlifyConfig(), functions: [], site: () => site };
    server = http.createServer(createHandler(options));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const privacy = (response: Response) => ({
    "x-robots-tag": response.headers.get("x-robots-tag"),
    "cache-control": response.headers.get("cache-control"),
  });
  const expected = { "x-robots-tag": "noindex, nofollow", "cache-control": "private, no-store" };

  it("answers /assessment/result.html and /assessment/result/ as /assessment/result: noindex, not publicly cached", async () => {
    const handle = createFetchHandler(options);
    for (const address of ADDRESSES) {
      const routed = await handle(new Request(base + address));
      expect(privacy(routed), address).toEqual(expected);
      const viaSocket = await fetch(base + address);
      expect(privacy(viaSocket), address).toEqual(expected);
    }
    // The file itself is served at both of its names.
    for (const address of ["/assessment/result", "/assessment/result.html"]) {
      const response = await fetch(base + address);
      expect(response.status, address).toBe(200);
      expect(await response.text(), address).toContain("Your Scan Result");
    }
  });

  it("leaves the scan's own page public", async () => {
    const scan = await fetch(`${base}/assessment`);
    expect(scan.status).toBe(200);
    expect(scan.headers.get("x-robots-tag")).toBeNull();
    expect(scan.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
  });
});
