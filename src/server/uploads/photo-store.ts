/**
 * Where uploaded photos live: DATA_DIR/uploads locally, the Netlify Blobs store "photos" on Netlify.
 * Names are chosen by the server (random, with the right extension), so a stored name is never
 * a path a client chose.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { config } from "../config.ts";
import { CONTENT_TYPES, EXTENSIONS, type ImageKind } from "./image.ts";

export const PHOTO_NAME = /^[a-f0-9]{32}\.(jpg|png|webp|gif|avif)$/;

const TYPE_BY_EXTENSION: Record<string, string> = Object.fromEntries(
  (Object.keys(EXTENSIONS) as ImageKind[]).map((kind) => [EXTENSIONS[kind], CONTENT_TYPES[kind]]),
);

export const contentTypeOf = (name: string) => TYPE_BY_EXTENSION[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";

export const newPhotoName = (kind: ImageKind) => `${randomBytes(16).toString("hex")}.${EXTENSIONS[kind]}`;

export interface PhotoStore {
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | null>;
}

const localStore = (dir: string): PhotoStore => ({
  async put(name, bytes) {
    await fs.mkdir(dir, { recursive: true });
    const temporary = path.join(dir, `.${name}.partial`);
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, path.join(dir, name));
  },
  async get(name) {
    try {
      return await fs.readFile(path.join(dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  },
});

const blobStore = (): PhotoStore => ({
  async put(name, bytes) {
    const { getStore } = await import("@netlify/blobs");
    const copy = new Uint8Array(bytes);
    await getStore("photos").set(name, copy.buffer, { metadata: { contentType: contentTypeOf(name) } });
  },
  async get(name) {
    const { getStore } = await import("@netlify/blobs");
    const data = await getStore("photos").get(name, { type: "arrayBuffer" });
    return data ? new Uint8Array(data) : null;
  },
});

let override: PhotoStore | undefined;

/** The configured store. */
export function photoStore(): PhotoStore {
  if (override) return override;
  const settings = config();
  return settings.onNetlify ? blobStore() : localStore(path.join(settings.dataDir, "uploads"));
}

/** Replaces the store (tests). */
export function usePhotoStore(store: PhotoStore | undefined): void {
  override = store;
}
