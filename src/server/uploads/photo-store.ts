/**
 * Where uploaded photos live: DATA_DIR/uploads locally, the Netlify Blobs store "photos" in a
 * Netlify Function (never the function's disk, which is read-only and lost with the instance).
 * Names are chosen by the server (random, with the right extension), so a stored name is never
 * a path a client chose.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { config } from "../config.ts";
import { CONTENT_TYPES, EXTENSIONS, type ImageKind } from "./image-kinds.ts";

/** A stored photo's name: an id, then for a sized upload its size and a copy's width (src/lib/photo-sizes.ts). */
export const PHOTO_NAME = /^[a-f0-9]{32}(?:_\d{1,5}x\d{1,5}(?:-\d{1,5})?)?\.(jpg|png|webp|gif|avif)$/;

/** The upload a stored photo belongs to (its copies share it). */
export const photoIdOf = (name: string) => name.slice(0, 32);

const TYPE_BY_EXTENSION: Record<string, string> = Object.fromEntries(
  (Object.keys(EXTENSIONS) as ImageKind[]).map((kind) => [EXTENSIONS[kind], CONTENT_TYPES[kind]]),
);

export const contentTypeOf = (name: string) => TYPE_BY_EXTENSION[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";

export const newPhotoId = () => randomBytes(16).toString("hex");

export interface StoredPhoto {
  name: string;
  storedAt: Date;
}

export interface PhotoStore {
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | null>;
  /** Every stored photo, with when it was stored (the retention job's view). */
  list(): Promise<StoredPhoto[]>;
  delete(name: string): Promise<void>;
}

/** Photos as files in `dir` (DATA_DIR/uploads locally). */
export const localPhotoStore = (dir: string): PhotoStore => ({
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
  async list() {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const photos = names.filter((name) => PHOTO_NAME.test(name));
    return Promise.all(photos.map(async (name) => ({ name, storedAt: (await fs.stat(path.join(dir, name))).mtime })));
  },
  async delete(name) {
    await fs.rm(path.join(dir, name), { force: true });
  },
});

/** A Netlify site's blob store reached from outside Netlify (a command-line tool): its id and a personal access token. */
export interface BlobSite {
  siteID: string;
  token: string;
  /** Another address for the blob service (tests run its local server). */
  edgeURL?: string;
}

const blobStore = (site?: BlobSite): PhotoStore => {
  // Inside a Netlify Function the runtime gives the store its site and token; outside, `site` does.
  const open = async () => {
    const { getStore } = await import("@netlify/blobs");
    return site ? getStore({ name: "photos", ...site }) : getStore("photos");
  };
  return {
    async put(name, bytes) {
      const copy = new Uint8Array(bytes);
      await (await open()).set(name, copy.buffer, { metadata: { contentType: contentTypeOf(name), storedAt: new Date().toISOString() } });
    },
    async get(name) {
      const data = await (await open()).get(name, { type: "arrayBuffer" });
      return data ? new Uint8Array(data) : null;
    },
    async list() {
      const store = await open();
      const { blobs } = await store.list();
      const photos = await Promise.all(
        blobs.map(async ({ key }) => {
          const stored = (await store.getMetadata(key))?.metadata.storedAt;
          // A photo stored before its time was recorded counts as stored now: never removed early.
          return { name: key, storedAt: typeof stored === "string" ? new Date(stored) : new Date() };
        }),
      );
      return photos.filter((photo) => PHOTO_NAME.test(photo.name));
    },
    async delete(name) {
      await (await open()).delete(name);
    },
  };
};

/** The photos of a Netlify site, from a command-line tool (`npm run book` with NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN). */
export const netlifyPhotoStore = (site: BlobSite): PhotoStore => blobStore(site);

let override: PhotoStore | undefined;

/** The configured store. */
export function photoStore(): PhotoStore {
  if (override) return override;
  const settings = config();
  return settings.platform === "local" ? localPhotoStore(path.join(settings.dataDir, "uploads")) : blobStore();
}

/** Replaces the store (tests). */
export function usePhotoStore(store: PhotoStore | undefined): void {
  override = store;
}
