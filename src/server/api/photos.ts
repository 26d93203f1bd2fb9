/**
 * GET /uploads/{name}: a stored photo, cached for a year (a name never changes meaning). It loads
 * no image library: only the upload (src/server/api/admin/upload.ts) processes images.
 */
import { notFound } from "../http/errors.ts";
import { route } from "../http/respond.ts";
import { contentTypeOf, PHOTO_NAME, photoStore } from "../uploads/photo-store.ts";

export const servePhoto = route<[name: string]>({
  GET: async (_request, name) => {
    const bytes = PHOTO_NAME.test(name) ? await photoStore().get(name) : null;
    if (!bytes) throw notFound("No photo has this address.");
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": contentTypeOf(name),
        "content-length": String(bytes.byteLength),
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
      },
    });
  },
});
