import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, useConfig } from "../../src/server/config.ts";
import { MAX_UPLOAD_BYTES } from "../../src/server/uploads/image.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin } from "../support/admin.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

/** A PNG of nothing but a header claiming width × height pixels: tiny on disk, huge if decoded. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "binary"), chunk("IHDR", ihdr), chunk("IEND", Buffer.alloc(0))]);
}

const target = databaseTargets()[0]!; // uploads touch no SQL beyond the session check: PGlite is enough

describe(`photo uploads on ${target.name}`, () => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;
  const previous = config();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-uploads-"));

  beforeAll(async () => {
    useConfig({ ...previous, dataDir });
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });
  afterAll(async () => {
    useConfig(previous);
    await database?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (bytes: Uint8Array, filename: string, type = "application/octet-stream", headers: Record<string, string> = { cookie }) => {
    const form = new FormData();
    form.set("photo", new Blob([new Uint8Array(bytes)], { type }), filename);
    return api("/api/upload", { method: "POST", headers, body: form });
  };
  const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

  it("stores a real PNG under a server-chosen name and serves it immutable, typed and nosniff", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } }).png().toBuffer();
    const response = await upload(png, "../../evil name.png", "image/png");
    expect(response.status).toBe(200);
    const { photoUrl } = (await response.json()) as { photoUrl: string };
    expect(photoUrl).toMatch(/^\/uploads\/[a-f0-9]{32}_40x30\.png$/);
    expect(fs.existsSync(path.join(dataDir, "uploads", photoUrl.slice("/uploads/".length)))).toBe(true);

    const served = await api(photoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 40, 30]);
    expect((await api("/uploads/0123456789abcdef0123456789abcdef.png")).status).toBe(404);
    expect((await api("/uploads/..%2F..%2Fsecret.png")).status).toBe(404);
  });

  it("keeps a wide photo with copies at 480, 960 and 1440 px in AVIF, WebP and JPEG, each served typed", async () => {
    const wide = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: "#2f4f4f" } }).webp().toBuffer();
    const response = await upload(wide, "wide.webp", "image/webp");
    expect(response.status).toBe(200);
    const { photoUrl } = (await response.json()) as { photoUrl: string };
    // A WebP upload's original is a JPEG: every browser shows it.
    expect(photoUrl).toMatch(/^\/uploads\/[a-f0-9]{32}_2000x1000\.jpg$/);
    const base = photoUrl.replace(/\.jpg$/, "");
    for (const width of [480, 960, 1440]) {
      for (const [ext, type, format] of [["avif", "image/avif", "heif"], ["webp", "image/webp", "webp"], ["jpg", "image/jpeg", "jpeg"]] as const) {
        const copy = await api(`${base}-${width}.${ext}`);
        expect(copy.status, `${width}.${ext}`).toBe(200);
        expect(copy.headers.get("content-type")).toBe(type);
        const meta = await sharp(Buffer.from(await copy.arrayBuffer())).metadata();
        expect([meta.format, meta.width, meta.height], `${width}.${ext}`).toEqual([format, width, width / 2]);
      }
    }
    expect((await api(`${base}-2000.avif`)).status).toBe(404);
    const original = await sharp(Buffer.from(await (await api(photoUrl)).arrayBuffer())).metadata();
    expect([original.format, original.width]).toEqual(["jpeg", 2000]);
  });

  it("strips EXIF (GPS position) from a JPEG and applies its orientation", async () => {
    const jpeg = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#a0522d" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Make: "SpyCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 13/1 0/1" } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const response = await upload(jpeg, "holiday.jpg", "image/jpeg");
    expect(response.status).toBe(200);
    const { photoUrl } = (await response.json()) as { photoUrl: string };
    expect(photoUrl).toMatch(/\.jpg$/);
    const stored = fs.readFileSync(path.join(dataDir, "uploads", photoUrl.slice("/uploads/".length)));
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from("SpyCam"))).toBe(false);
    expect([meta.width, meta.height]).toEqual([32, 64]); // rotated upright by Orientation 6
  });

  it("refuses a text file named .png with 415, whatever its declared type", async () => {
    const response = await upload(Buffer.from("this is not an image, just text pretending\n".repeat(10)), "photo.png", "image/png");
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toMatchObject({ code: "unsupported_media_type" });
  });

  it("refuses 4 MB + 1 byte with 413", async () => {
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0);
    big.set(await sharp({ create: { width: 2, height: 2, channels: 3, background: "#000" } }).png().toBuffer());
    const response = await upload(big, "big.png", "image/png");
    expect(response.status).toBe(413);
    const lying = await api("/api/upload", { method: "POST", headers: { cookie, "content-type": "multipart/form-data; boundary=x", "content-length": String(6 * 1024 * 1024) }, body: "--x--" });
    expect(lying.status).toBe(413);
  });

  it("refuses an image bomb (a tiny PNG claiming 100000 × 100000) by its header, without decoding", async () => {
    const bomb = pngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(100);
    const started = performance.now();
    const response = await upload(bomb, "bomb.png", "image/png");
    expect(response.status).toBe(413);
    expect((await errorOf(response)).message).toContain("100000 × 100000");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("refuses a JPEG over the pixel cap that the decoder reads the size of (10000 × 5000)", async () => {
    const wide = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: "#fff" } }).jpeg({ quality: 10 }).toBuffer();
    expect(wide.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const response = await upload(wide, "wide.jpg", "image/jpeg");
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("too_many_pixels");
  });

  it("answers 400 without the photo field, 415 for a JSON body, 401/403 without an admin session", async () => {
    const form = new FormData();
    form.set("file", new Blob(["x"]), "x.png");
    const missing = await api("/api/upload", { method: "POST", headers: { cookie }, body: form });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/^photo:/);
    expect((await api("/api/upload", { method: "POST", headers: { cookie, "content-type": "application/json" }, body: "{}" })).status).toBe(415);
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#000" } }).png().toBuffer();
    expect((await upload(png, "a.png", "image/png", {})).status).toBe(401);
    const reader = await loginAs(api, database.db, "Mastermind");
    expect((await upload(png, "a.png", "image/png", { cookie: reader.cookie })).status).toBe(403);
  });
});
