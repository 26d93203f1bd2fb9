/**
 * The functions' routing by `config.path` (URLPattern), remembered per path: the same answer as
 * the patterns give, by method, for every path asked again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadFunctions } from "./functions.ts";

describe("loadFunctions", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-functions-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("matches paths, their parameters, excluded paths and methods, the same on every ask", async () => {
    fs.writeFileSync(
      path.join(dir, "page.mjs"),
      `export default () => new Response("page");\nexport const config = { path: "/:slug", excludedPath: ["/admin"], preferStatic: true };\n`,
    );
    fs.writeFileSync(path.join(dir, "post.mjs"), `export default () => new Response("post");\nexport const config = { path: "/api/things/:id", method: ["POST"] };\n`);
    fs.writeFileSync(path.join(dir, "bare.mjs"), `export default () => new Response("bare");\n`);
    fs.writeFileSync(path.join(dir, "job.mjs"), `export default () => new Response("job");\nexport const config = { schedule: "@hourly" };\n`);
    const routes = await loadFunctions(dir);
    expect(routes.map((route) => route.name)).toEqual(["bare", "page", "post"]);
    const [bare, page, post] = routes as [(typeof routes)[0], (typeof routes)[0], (typeof routes)[0]];
    const at = (pathname: string) => new URL(pathname, "http://host");
    for (let ask = 0; ask < 3; ask++) {
      expect(page.match(at("/signal-and-noise"), "GET")).toEqual({ slug: "signal-and-noise" });
      expect(page.match(at("/the-leverage-point"), "GET")).toEqual({ slug: "the-leverage-point" });
      expect(page.match(at("/admin"), "GET")).toBeNull();
      expect(page.match(at("/a/b"), "GET")).toBeNull();
      expect(post.match(at("/api/things/7"), "POST")).toEqual({ id: "7" });
      expect(post.match(at("/api/things/7"), "GET")).toBeNull();
      expect(bare.match(at("/.netlify/functions/bare"), "GET")).toEqual({});
      expect(bare.match(at("/bare"), "GET")).toBeNull();
    }
    // A remembered answer cannot be changed by the handler it is given to.
    expect(Object.isFrozen(page.match(at("/signal-and-noise"), "GET"))).toBe(true);
  });
});
