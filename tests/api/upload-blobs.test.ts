/**
 * Photos on Netlify are kept in Netlify Blobs (store "photos"). Here the real @netlify/blobs
 * client talks to its local BlobsServer, so the production path (upload, store, serve) runs for
 * real, only not over the internet.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BlobsServer } from "@netlify/blobs/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, useConfig } from "../../src/server/config.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin } from "../support/admin.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

describe("photos in Netlify Blobs", () => {
  const previous = config();
  const blobsDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-blobs-"));
  const localDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-no-uploads-"));
  let server: BlobsServer;
  let database: TestDatabase;
  let api: Api;
  let cookie: string;

  beforeAll(async () => {
    const token = "local-blobs-token";
    server = new BlobsServer({ directory: blobsDir, token });
    const { port } = await server.start();
    process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
      JSON.stringify({ siteID: "test-site", token, edgeURL: `http://127.0.0.1:${port}`, uncachedEdgeURL: `http://127.0.0.1:${port}` }),
    ).toString("base64");
    useConfig({ ...previous, platform: "netlify-functions", dataDir: localDir, sessionSecret: "a-session-secret-for-the-blobs-test-0123456789" });
    database = await databaseTargets()[0]!.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });

  afterAll(async () => {
    useConfig(previous);
    delete process.env.NETLIFY_BLOBS_CONTEXT;
    await database?.dispose();
    await server?.stop();
    fs.rmSync(blobsDir, { recursive: true, force: true });
    fs.rmSync(localDir, { recursive: true, force: true });
  });

  it("stores an upload in the photos store and serves it from there", async () => {
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#804020" } }).jpeg().toBuffer();
    const form = new FormData();
    form.set("photo", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "field.jpg");
    const response = await api("/api/upload", { method: "POST", headers: { cookie }, body: form });
    expect(response.status).toBe(200);
    const { photoUrl } = (await response.json()) as { photoUrl: string };
    expect(photoUrl).toMatch(/^\/uploads\/[a-f0-9]{32}_32x24\.jpg$/);

    // Nothing on the local disk: the bytes went to the blob store.
    expect(fs.existsSync(path.join(localDir, "uploads"))).toBe(false);
    const stored = fs.readdirSync(blobsDir, { recursive: true }).map(String);
    expect(stored.some((file) => file.includes("photos"))).toBe(true);

    const served = await api(photoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("cache-control")).toContain("immutable");
    const bytes = Buffer.from(await served.arrayBuffer());
    expect((await sharp(bytes).metadata()).width).toBe(32);
    // Its AVIF copy is in the store too.
    const avif = await api(photoUrl.replace(/\.jpg$/, "-32.avif"));
    expect(avif.status).toBe(200);
    expect(avif.headers.get("content-type")).toBe("image/avif");

    expect((await api("/uploads/00000000000000000000000000000000.jpg")).status).toBe(404);
  });
});
