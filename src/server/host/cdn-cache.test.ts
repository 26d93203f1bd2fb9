import { describe, expect, it } from "vitest";
import { CdnCache, editHeaders } from "./cdn-cache.ts";

describe("editHeaders", () => {
  it("edits a function's own answer in place, with its body untouched", async () => {
    const response = new Response("the page", { status: 201, headers: { "x-one": "1", "x-two": "2" } });
    const edited = editHeaders(response, (headers) => headers.delete("x-two"));
    expect(edited).toBe(response);
    expect([...edited.headers]).toEqual([["content-type", "text/plain;charset=UTF-8"], ["x-one", "1"]]);
    expect(await edited.text()).toBe("the page");
  });

  it("edits a copy of an answer whose headers are immutable (Response.redirect)", () => {
    const redirect = Response.redirect("http://host/resume", 302);
    const edited = editHeaders(redirect, (headers) => headers.set("cache-status", "x"));
    expect(edited).not.toBe(redirect);
    expect(edited.status).toBe(302);
    expect(edited.headers.get("location")).toBe("http://host/resume");
    expect(edited.headers.get("cache-status")).toBe("x");
  });
});

describe("CdnCache.fetch", () => {
  it("passes an answer it may not keep through without the CDN's headers, marked a miss", async () => {
    const cache = new CdnCache();
    const answer = await cache.fetch(new Request("http://host/page"), async () =>
      new Response("private", { headers: { "netlify-cdn-cache-control": "private, no-store", "netlify-cache-tag": "book", "cache-control": "no-store" } }),
    );
    expect(answer.headers.get("netlify-cdn-cache-control")).toBeNull();
    expect(answer.headers.get("netlify-cache-tag")).toBeNull();
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("cache-status")).toBe('"Netlify Edge"; fwd=miss');
    expect(await answer.text()).toBe("private");
    expect(cache.size).toBe(0);
  });

  it("passes a redirect through, its headers copied", async () => {
    const cache = new CdnCache();
    const answer = await cache.fetch(new Request("http://host/old"), async () => Response.redirect("http://host/new", 301));
    expect(answer.status).toBe(301);
    expect(answer.headers.get("location")).toBe("http://host/new");
    expect(answer.headers.get("cache-status")).toBe('"Netlify Edge"; fwd=miss');
  });
});
