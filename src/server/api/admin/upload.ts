/**
 * POST /api/upload      multipart field `photo` → 200 {photoUrl: "/uploads/NAME"}; admin only; the
 *     photo is stored with narrower copies in AVIF, WebP and JPEG/PNG (src/lib/photo-sizes.ts)
 * (GET /uploads/{name} is src/server/api/photos.ts: serving needs no image library.)
 *
 * The body is read with a hard cap before parsing (a missing or false Content-Length cannot get
 * past it): 413 beyond 4 MB, 415 for anything but JPEG/PNG/WebP/GIF/AVIF by content, 413 beyond
 * the pixel cap, and metadata is stripped (src/server/uploads/image.ts).
 */
import { requireAdmin } from "../../access/admin.ts";
import { HttpError, badRequest } from "../../http/errors.ts";
import { readBody } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import { cleanImage, MAX_UPLOAD_BYTES, uploadFiles } from "../../uploads/image.ts";
import { newPhotoId, photoStore } from "../../uploads/photo-store.ts";

/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 16 * 1024;

const tooLarge = () =>
  new HttpError(413, "too_large", `The photo is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. Resize or compress it and upload again.`);

export const uploadPhoto = route({
  POST: async (request) => {
    await requireAdmin(request);
    const type = request.headers.get("content-type") ?? "";
    if (!/^multipart\/form-data\b/i.test(type)) {
      throw new HttpError(415, "unsupported_media_type", "Send the photo as multipart/form-data in the field photo.");
    }
    const limit = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;
    if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
    const body = await readBody(request, limit, tooLarge);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
    } catch {
      throw badRequest("The upload could not be read as multipart/form-data.");
    }
    const file = form.get("photo");
    if (!(file instanceof Blob)) throw badRequest("photo: attach the image in the multipart field photo.");
    if (file.size === 0) throw badRequest("photo: the file is empty.");
    if (file.size > MAX_UPLOAD_BYTES) throw tooLarge();
    const image = await cleanImage(new Uint8Array(await file.arrayBuffer()));
    const { url, files } = await uploadFiles(image, newPhotoId());
    const store = photoStore();
    // The copies first, the original last: the address answered is complete once it exists.
    for (const { name, bytes } of files.slice(1)) await store.put(name, bytes);
    await store.put(files[0]!.name, files[0]!.bytes);
    return json({ photoUrl: url });
  },
});
