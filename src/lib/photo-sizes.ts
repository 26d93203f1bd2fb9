/**
 * Uploaded photos in sizes that fit the screen (issue 13). An upload is stored as its cleaned
 * original, named with its size (`/uploads/{id}_{W}x{H}.{jpg|png}`), and beside it a few narrower
 * copies in AVIF, WebP and the original's format (`{id}_{W}x{H}-{w}.{ext}`). The name alone tells
 * the page which copies exist, so rendering needs no lookup: a phone downloads a phone-sized
 * image, and the width and height keep the page from moving when it arrives. Any other photo
 * address (an older upload, a photo elsewhere on the web) is shown as it is.
 */
import { escapeHtml } from "./html.ts";

/** The widths kept of every photo wider than them (device pixels: a 42rem column at 1x-2x, and phones). */
export const PHOTO_WIDTHS = [480, 960, 1440] as const;
/** The modern formats kept of each width, best first; the original's format is the fallback. */
export const MODERN_FORMATS = ["avif", "webp"] as const;

export interface SizedPhoto {
  id: string;
  width: number;
  height: number;
  /** The fallback's extension: jpg, or png for an image with transparency. */
  ext: "jpg" | "png";
}

const SIZED = /^\/uploads\/([a-f0-9]{32})_(\d{1,5})x(\d{1,5})\.(jpg|png)$/;

/** What an address names, when it is an upload stored with its sizes. */
export function sizedPhoto(url: string): SizedPhoto | null {
  const match = SIZED.exec(url);
  if (!match) return null;
  return { id: match[1]!, width: Number(match[2]), height: Number(match[3]), ext: match[4] as "jpg" | "png" };
}

/** The widths kept of a photo `width` wide: each of PHOTO_WIDTHS below it, and its own up to the largest. */
export function keptWidths(width: number): number[] {
  const below = PHOTO_WIDTHS.filter((w) => w < width);
  return width <= PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]! ? [...below, width] : [...below];
}

/** The stored name of the original, and of its copy `w` wide in `ext`. */
export const originalName = (p: SizedPhoto) => `${p.id}_${p.width}x${p.height}.${p.ext}`;
export const copyName = (p: SizedPhoto, w: number, ext: string) => `${p.id}_${p.width}x${p.height}-${w}.${ext}`;

/** How wide the photo shows: the reading column (42rem) or the screen less its gutters. */
export const PHOTO_SIZES = "(min-width: 46rem) 42rem, calc(100vw - 2rem)";

/**
 * The HTML of a subsection photo: a <picture> of the kept copies for a sized upload, else a plain
 * image. `className` styles the image (the box is the CSS's: at most 300 px high). Loaded lazily:
 * a subsection comes after the chapter's opening text, below the first screen, so a reader who
 * never scrolls that far never downloads it (issue 20: 2).
 */
export function photoHtml(url: string, alt: string, className: string): string {
  const common = `alt="${escapeHtml(alt)}" loading="lazy" decoding="async" class="${className}"`;
  const photo = sizedPhoto(url);
  if (!photo) return `<img src="${escapeHtml(url)}" ${common}>`;
  const widths = keptWidths(photo.width);
  const srcset = (ext: string) => widths.map((w) => `/uploads/${copyName(photo, w, ext)} ${w}w`).join(", ");
  const sources = MODERN_FORMATS.map((format) => `<source type="image/${format}" srcset="${srcset(format)}" sizes="${PHOTO_SIZES}">`).join("");
  return (
    `<picture>${sources}` +
    `<img src="/uploads/${originalName(photo)}" srcset="${srcset(photo.ext)}" sizes="${PHOTO_SIZES}" width="${photo.width}" height="${photo.height}" ${common}>` +
    `</picture>`
  );
}
