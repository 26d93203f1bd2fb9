/**
 * verifiedSid: a token's signature and claims are checked once per process and remembered, but
 * its expiry at every use, and a token signed with another key, for another kind or altered is
 * refused, remembered or not.
 */
import { SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig, useConfig } from "../config.ts";
import { cookieName } from "./cookies.ts";
import { resetSessionKey, sessionKey } from "./secret.ts";
import { audience, ISSUER, verifiedSid } from "./session.ts";

const useSecret = (secret: string) => {
  useConfig({ ...readConfig({ SESSION_SECRET: secret }, "local"), sessionSecret: secret });
  resetSessionKey();
};

const token = (sid: string, expSeconds: number, kind: "reader" | "admin" = "reader") =>
  new SignJWT({ kind })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setJti(sid)
    .setIssuer(ISSUER)
    .setAudience(audience(kind))
    .setIssuedAt(expSeconds - 3600)
    .setExpirationTime(expSeconds)
    .sign(sessionKey());

const carrying = (kind: "reader" | "admin", value: string) => new Request("http://host/", { headers: { cookie: `${cookieName(kind)}=${value}` } });

describe("verifiedSid", () => {
  afterEach(() => {
    useConfig(undefined);
    resetSessionKey();
  });

  it("answers the session id, and refuses the remembered token from its expiry on", async () => {
    useSecret("a".repeat(48));
    const exp = Math.floor(Date.now() / 1000) + 60;
    const signed = await token("sid-one", exp);
    const before = new Date((exp - 1) * 1000);
    expect(await verifiedSid(carrying("reader", signed), "reader", before)).toBe("sid-one");
    expect(await verifiedSid(carrying("reader", signed), "reader", before)).toBe("sid-one");
    expect(await verifiedSid(carrying("reader", signed), "reader", new Date(exp * 1000))).toBeNull();
    expect(await verifiedSid(carrying("reader", signed), "reader", new Date((exp + 5) * 1000))).toBeNull();
  });

  it("refuses an altered token, a token of the other kind, and a remembered token once the key changed", async () => {
    useSecret("b".repeat(48));
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const signed = await token("sid-two", exp);
    expect(await verifiedSid(carrying("reader", signed), "reader")).toBe("sid-two");
    const [header, payload, signature] = signed.split(".") as [string, string, string];
    const altered = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    expect(await verifiedSid(carrying("reader", altered), "reader")).toBeNull();
    expect(await verifiedSid(carrying("admin", signed), "admin")).toBeNull();
    const admin = await token("sid-admin", exp, "admin");
    expect(await verifiedSid(carrying("reader", admin), "reader")).toBeNull();
    useSecret("c".repeat(48));
    expect(await verifiedSid(carrying("reader", signed), "reader")).toBeNull();
  });
});
