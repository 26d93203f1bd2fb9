/**
 * Checking and cleaning an uploaded photo. The type is judged by the file's first bytes, never by
 * its name or declared type; the dimensions are read from the header (no decoding) and capped, so
 * a small file claiming a huge canvas (an image bomb) is refused before any pixel is decoded.
 * The image is then re-encoded in its own format, upright (EXIF orientation applied), without
 * any metadata: GPS position, camera and timestamps never reach the site.
 */
import type { Sharp } from "sharp";
import { copyName, keptWidths, MODERN_FORMATS, originalName, type SizedPhoto } from "../../lib/photo-sizes.ts";
import { HttpError } from "../http/errors.ts";
import type { ImageKind } from "./image-kinds.ts";

export type { ImageKind } from "./image-kinds.ts";

/**
 * The image library, loaded on the first upload: it holds about 20 MiB of native code and memory
 * a server that only reads never needs (README, "Memory").
 */
type SharpFunction = typeof import("sharp").default;
let library: Promise<SharpFunction> | undefined;
async function sharp(...args: Parameters<SharpFunction>): Promise<Sharp> {
  library ??= import("sharp").then((module) => module.default);
  return (await library)(...args);
}

export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;


const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** The image format a file's magic bytes announce, or null. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (ascii(bytes, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return "gif";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  if (ascii(bytes, 4, 8) === "ftyp") {
    const boxSize = Math.min(bytes.length, (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!);
    const brands = [ascii(bytes, 8, 12)];
    for (let i = 16; i + 4 <= boxSize; i += 4) brands.push(ascii(bytes, i, i + 4));
    if (brands.includes("avif") || brands.includes("avis")) return "avif";
  }
  return null;
}

export const UNSUPPORTED =
  "This file is not a JPEG, PNG, WebP, GIF or AVIF image (judged by its content, not its name). Choose a photo in one of those formats.";

/**
 * Width and height straight from a PNG's IHDR or a GIF's screen descriptor: the decoder may refuse
 * such a header as corrupt before it reports a size, and the cap must hold either way.
 */
function headerSize(kind: ImageKind, bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === "png" && bytes.length >= 24 && ascii(bytes, 12, 16) === "IHDR") {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (kind === "gif" && bytes.length >= 10) return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  return null;
}

const tooManyPixels = (width: number, height: number, pages = 1) =>
  new HttpError(
    413,
    "too_many_pixels",
    `This image is ${width} × ${height} pixels${pages > 1 ? ` over ${pages} frames` : ""}; the limit is ${MAX_PIXELS / 1_000_000} megapixels. Resize it and upload again.`,
  );

export interface CleanImage {
  kind: ImageKind;
  bytes: Buffer;
  width: number;
  height: number;
}

/** Validates and re-encodes an upload; 415 for other formats, 413 beyond the pixel cap, 400 for a broken image. */
export async function cleanImage(input: Uint8Array): Promise<CleanImage> {
  const kind = sniffImage(input);
  if (!kind) throw new HttpError(415, "unsupported_media_type", UNSUPPORTED);
  const declared = headerSize(kind, input);
  if (declared && declared.width * declared.height > MAX_PIXELS) throw tooManyPixels(declared.width, declared.height);
  let width: number;
  let height: number;
  let pages = 1;
  try {
    const meta = await (await sharp(input)).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
    pages = meta.pages ?? 1;
  } catch {
    throw unreadable();
  }
  if (width === 0 || height === 0) throw unreadable();
  if (width * height * pages > MAX_PIXELS) throw tooManyPixels(width, height, pages);
  try {
    const animated = pages > 1 && (kind === "gif" || kind === "webp");
    // No .withMetadata(): sharp drops EXIF (GPS), XMP and IPTC when re-encoding.
    const pipeline = (await sharp(input, { animated, limitInputPixels: MAX_PIXELS })).rotate();
    const encoded =
      kind === "jpeg"
        ? pipeline.jpeg({ quality: 85, mozjpeg: true })
        : kind === "png"
          ? pipeline.png()
          : kind === "webp"
            ? pipeline.webp({ quality: 85 })
            : kind === "gif"
              ? pipeline.gif()
              : pipeline.avif({ quality: 60 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { kind, bytes: data, width: info.width, height: info.height };
  } catch {
    throw unreadable();
  }
}

const unreadable = () =>
  new HttpError(400, "unreadable_image", "This image could not be read; it may be damaged. Export it again and upload the new file.");

export interface UploadFiles {
  /** The address the subsection stores. */
  url: string;
  /** Every file to store: the original and its narrower copies (src/lib/photo-sizes.ts). */
  files: Array<{ name: string; bytes: Buffer }>;
}

/**
 * The files an upload is stored as. A GIF (often animated) is kept as it is. Any other photo gets
 * an original in a format every browser shows (PNG for a PNG or a photo with transparency, else
 * JPEG), named with its size, and copies at the kept widths in AVIF, WebP and that format.
 */
export async function uploadFiles(image: CleanImage, id: string): Promise<UploadFiles> {
  if (image.kind === "gif") return { url: `/uploads/${id}.gif`, files: [{ name: `${id}.gif`, bytes: image.bytes }] };
  // A PNG stays lossless (a diagram, a scan of text); a photo with transparency needs PNG too.
  const ext = image.kind === "png" || (await (await sharp(image.bytes)).metadata()).hasAlpha ? "png" : "jpg";
  const inFormat = (pipeline: Sharp, format: string) =>
    format === "avif"
      ? pipeline.avif({ quality: 50 })
      : format === "webp"
        ? pipeline.webp({ quality: 75 })
        : format === "png"
          ? pipeline.png({ compressionLevel: 9 })
          : pipeline.jpeg({ quality: 80, mozjpeg: true });
  const photo: SizedPhoto = { id, width: image.width, height: image.height, ext };
  const original = image.kind === (ext === "png" ? "png" : "jpeg") ? image.bytes : await inFormat(await sharp(image.bytes), ext).toBuffer();
  const files = [{ name: originalName(photo), bytes: original }];
  for (const width of keptWidths(image.width)) {
    for (const format of [...MODERN_FORMATS, ext]) {
      files.push({ name: copyName(photo, width, format), bytes: await inFormat((await sharp(image.bytes)).resize({ width }), format).toBuffer() });
    }
  }
  return { url: `/uploads/${originalName(photo)}`, files };
}
