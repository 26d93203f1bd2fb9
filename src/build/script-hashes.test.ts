import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ownScriptHashes } from "./script-hashes.ts";

const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("ownScriptHashes", () => {
  it("keeps the hashes of the page's own inline scripts and drops the rest of the site's", () => {
    const mine = "console.log(1)";
    const module = "import('/x.js')";
    const page =
      `<head><meta http-equiv="content-security-policy" content="script-src 'self' ${hash(mine)} ${hash("other()")} ${hash(module)} ${hash("more()")}; style-src 'self' 'unsafe-inline' ;">` +
      `<script>${mine}</script><script type="module">${module}</script><script type="application/json" id="data">{"a":1}</script><script src="/a.js"></script></head>`;
    const policy = /content="([^"]*)"/.exec(ownScriptHashes(page))![1]!;
    expect(policy).toBe(`script-src 'self' ${hash(mine)} ${hash(module)} ; style-src 'self' 'unsafe-inline' ;`);
  });

  it("leaves a page without a policy as it is", () => {
    expect(ownScriptHashes("<p>no policy</p>")).toBe("<p>no policy</p>");
  });
});
