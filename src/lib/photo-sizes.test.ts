import { describe, expect, it } from "vitest";
import { keptWidths, photoHtml, PHOTO_SIZES, sizedPhoto } from "./photo-sizes.ts";

const id = "a".repeat(32);

describe("photo sizes", () => {
  it("reads an upload's size from its address, and nothing from any other address", () => {
    expect(sizedPhoto(`/uploads/${id}_2000x1000.jpg`)).toEqual({ id, width: 2000, height: 1000, ext: "jpg" });
    expect(sizedPhoto(`/uploads/${id}.jpg`)).toBeNull();
    expect(sizedPhoto(`https://example.com/uploads/${id}_2000x1000.jpg`)).toBeNull();
    expect(sizedPhoto(`/uploads/${id}_2000x1000.gif`)).toBeNull();
  });

  it("keeps each width below the photo's, and its own up to the largest", () => {
    expect(keptWidths(2000)).toEqual([480, 960, 1440]);
    expect(keptWidths(1440)).toEqual([480, 960, 1440]);
    expect(keptWidths(800)).toEqual([480, 800]);
    expect(keptWidths(300)).toEqual([300]);
  });

  it("shows a sized upload as a picture of AVIF, WebP and fallback copies, with its width and height", () => {
    const html = photoHtml(`/uploads/${id}_800x600.png`, 'A "quiet" room', "photo");
    const base = `/uploads/${id}_800x600`;
    expect(html).toBe(
      `<picture>` +
        `<source type="image/avif" srcset="${base}-480.avif 480w, ${base}-800.avif 800w" sizes="${PHOTO_SIZES}">` +
        `<source type="image/webp" srcset="${base}-480.webp 480w, ${base}-800.webp 800w" sizes="${PHOTO_SIZES}">` +
        `<img src="${base}.png" srcset="${base}-480.png 480w, ${base}-800.png 800w" sizes="${PHOTO_SIZES}" width="800" height="600" alt="A &quot;quiet&quot; room" loading="lazy" decoding="async" class="photo">` +
        `</picture>`,
    );
  });

  it("shows any other address as it is", () => {
    expect(photoHtml("https://example.com/a.jpg?x=1&y=2", "", "photo")).toBe(
      `<img src="https://example.com/a.jpg?x=1&amp;y=2" alt="" loading="lazy" decoding="async" class="photo">`,
    );
  });
});
