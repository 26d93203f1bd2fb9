import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, QUERY_RETRY_DELAY_MS, apiRequest, errorMessage } from "./api-client.ts";

type Answer = Response | Error;

/** Stubs fetch with answers given in turn; answers the calls made. */
function answers(...list: Answer[]): { calls: Array<[string, RequestInit]> } {
  const calls: Array<[string, RequestInit]> = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push([url, init]);
    const next = list.shift();
    if (!next) throw new Error("no answer left");
    if (next instanceof Error) throw next;
    return next;
  });
  return { calls };
}

const json = (status: number, body: unknown, statusText = "") =>
  new Response(JSON.stringify(body), { status, statusText, headers: { "content-type": "application/json" } });
const ourError = (status: number, code: string, message: string) => json(status, { error: { code, message } });

describe("apiRequest", () => {
  let logged: unknown[][];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("sends credentials, and a JSON body with its content type only when there is one", async () => {
    const { calls } = answers(json(200, { ok: 1 }), new Response(null, { status: 204 }));
    expect(await apiRequest("GET", "/api/chapters")).toEqual({ ok: 1 });
    expect(await apiRequest("POST", "/api/auth/validate", { login: "a", password: "b" })).toBeUndefined();
    expect(calls[0]![1]).toMatchObject({ method: "GET", credentials: "include", headers: undefined, body: undefined });
    expect(calls[1]![1]).toMatchObject({ credentials: "include", headers: { "Content-Type": "application/json" }, body: '{"login":"a","password":"b"}' });
  });

  it("makes a failure '{status}: {text}': our JSON error's message, else the body, else the status text", async () => {
    answers(
      ourError(401, "invalid_credentials", "Invalid access code or password."),
      new Response("Down for a moment", { status: 400 }),
      new Response("", { status: 404, statusText: "Not Found" }),
    );
    const first = await apiRequest("POST", "/api/auth/validate", {}).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect(errorMessage(first)).toBe("401: Invalid access code or password.");
    expect(first).toMatchObject({ status: 401, code: "invalid_credentials", text: "Invalid access code or password." });
    expect(errorMessage(await apiRequest("POST", "/x").catch((e: unknown) => e))).toBe("400: Down for a moment");
    expect(errorMessage(await apiRequest("POST", "/y").catch((e: unknown) => e))).toBe("404: Not Found");
  });

  it("logs every failed mutation as 'Query mutation error:' and never retries one", async () => {
    const { calls } = answers(new Response("busy", { status: 503 }), new TypeError("Failed to fetch"));
    await expect(apiRequest("PUT", "/api/admin/chapters/1", {})).rejects.toThrow("503: busy");
    await expect(apiRequest("DELETE", "/api/admin/chapters/1")).rejects.toThrow("Failed to fetch");
    expect(calls).toHaveLength(2);
    expect(logged.map((args) => args[0])).toEqual(["Query mutation error:", "Query mutation error:"]);
  });

  it("retries a query once after 1 s when the network or the server fails", async () => {
    vi.useFakeTimers();
    const { calls } = answers(new Response("busy", { status: 503 }), json(200, [1]));
    const result = apiRequest("GET", "/api/chapters");
    await vi.advanceTimersByTimeAsync(QUERY_RETRY_DELAY_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual([1]);
    expect(calls).toHaveLength(2);
    expect(logged).toEqual([]);
  });

  it("retries a query only once, and not at all when the server refused it (4xx)", async () => {
    vi.useFakeTimers();
    const { calls } = answers(new TypeError("Failed to fetch"), new Response("still down", { status: 502 }), ourError(401, "unauthenticated", "Sign in first."));
    const twice = apiRequest("GET", "/api/chapters").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(QUERY_RETRY_DELAY_MS);
    expect(errorMessage(await twice)).toBe("502: still down");
    await expect(apiRequest("GET", "/api/admin/chapters")).rejects.toThrow("401: Sign in first.");
    expect(calls).toHaveLength(3);
  });
});
