/**
 * Typography as a person sees it (issue 12: 10), at a desktop (1280x800) and
 * a phone (390x844) size: boxes, pixels and computed styles, not attributes.
 */
import { expect, test } from "./page-test.ts";
import { hydrated, operatorChapters } from "./reader-helpers.ts";

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const FAMILY = "Source Serif 4 Variable";

for (const size of SIZES) {
  test.describe(`${size.width}x${size.height}`, () => {
    test.use({ viewport: size });

    test("the page's body, its headings, a legal page, the scan and the admin panel are set in the book's one font", async ({ page, request }) => {
      const [first] = await operatorChapters(request);
      const fontsFetched: string[] = [];
      page.on("requestfinished", (req) => {
        if (req.resourceType() === "font") fontsFetched.push(req.url());
      });
      await page.goto(`/${first!.slug}`);
      await hydrated(page);
      const preload = page.locator('link[rel="preload"][as="font"][type="font/woff2"][crossorigin]');
      await expect(preload).toHaveCount(1);
      const href = await preload.evaluate((link: HTMLLinkElement) => link.href);
      const file = await request.get(href);
      expect(file.status()).toBe(200);
      expect(file.headers()["content-type"]).toBe("font/woff2");

      await page.evaluate(() => document.fonts.ready);
      const state = await page.evaluate((family) => ({
        body: getComputedStyle(document.body).fontFamily,
        h1: getComputedStyle(document.querySelector("article h1")!).fontFamily,
        h2: getComputedStyle(document.querySelector(".chapter-content h2, section h2")!).fontFamily,
        rail: getComputedStyle(document.querySelector("[data-testid='rail'] a") ?? document.body).fontFamily,
        loaded: [...document.fonts].some((face) => face.family.replace(/"/g, "") === family && face.status === "loaded"),
        check: document.fonts.check(`16px "${family}"`),
      }), FAMILY);
      for (const key of ["body", "h1", "h2", "rail"] as const) expect(state[key], key).toMatch(new RegExp(`^"?${FAMILY}"?,`));
      expect(state.loaded).toBe(true);
      expect(state.check).toBe(true);
      // The preloaded file is the one the page uses; every font comes from this site, latin only.
      expect(fontsFetched).toContain(href);
      for (const url of fontsFetched) {
        expect(new URL(url).origin).toBe(new URL(page.url()).origin);
        expect(url).toMatch(/source-serif-4-latin-wght-(normal|italic)\.[\w-]+\.woff2$/);
      }

      for (const address of ["/privacy-policy", "/assessment", "/admin"]) {
        await page.goto(address);
        await hydrated(page);
        const heading = page.getByRole("heading").first();
        await expect(heading).toBeVisible();
        for (const element of [page.locator("body"), heading]) {
          expect(await element.evaluate((el) => getComputedStyle(el).fontFamily), address).toMatch(new RegExp(`^"?${FAMILY}"?,`));
        }
      }
    });
  });
}

/*
 * A slow network: the font arrives 1.5 s after the page has painted in the fallback. The text of
 * the page keeps its lines (the fallback is Times/Liberation Serif scaled to Source Serif's
 * widths, ascent and descent): nothing inside <main> moves. Only right-aligned text can move by a
 * few pixels (the header's account links end at a fixed edge and start wherever their width
 * says), which the layout-shift score counts as next to nothing.
 */
for (const size of SIZES) {
  test(`${size.width}x${size.height}: the page's text does not move when the font arrives late`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const [first] = await operatorChapters(request);
    let delayed = 0;
    await page.route("**/*.woff2", async (route) => {
      delayed++;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.addInitScript(() => {
      const shifts: Array<{ value: number; inMain: boolean }> = [];
      (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; sources: Array<{ node?: Node | null }> }>) {
          const inMain = entry.sources.some((source) => source.node && document.querySelector("main")?.contains(source.node));
          shifts.push({ value: entry.value, inMain });
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(`/${first!.slug}`);
    // It painted before the font came: the fallback face was on screen first.
    expect(await page.evaluate(() => [...document.fonts].some((face) => face.family.replace(/"/g, "") === "Source Serif 4 Variable" && face.status !== "loaded"))).toBe(true);
    await page.evaluate(() => document.fonts.ready);
    await hydrated(page);
    await page.waitForTimeout(300);
    expect(delayed).toBeGreaterThan(0);
    const shifts = await page.evaluate(() => (window as unknown as { __shifts: Array<{ value: number; inMain: boolean }> }).__shifts);
    expect(shifts.filter((shift) => shift.inMain)).toEqual([]);
    expect(shifts.reduce((sum, shift) => sum + shift.value, 0)).toBeLessThan(0.001);
  });
}
