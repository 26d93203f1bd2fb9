/**
 * The image formats the site stores, with their file extensions and content types. Apart from
 * image.ts (which needs sharp), so serving a stored photo never loads the image library.
 */
export type ImageKind = "jpeg" | "png" | "webp" | "gif" | "avif";

export const EXTENSIONS: Record<ImageKind, string> = { jpeg: "jpg", png: "png", webp: "webp", gif: "gif", avif: "avif" };
export const CONTENT_TYPES: Record<ImageKind, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
};
