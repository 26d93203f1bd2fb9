/**
 * One header (issue 34: 6 and 8), at 360, 390 and 1280 px in both themes, with axe: on every kind
 * of page the menu and the site's name stand at the same place and look the same, pixel for pixel
 * (the name is there on phones too); the header is one bar of 56 px at the top of the window, and
 * on a phone's chapter it is the only bar above the title, holding the menu, the name and the
 * progress line, then the chapter's title once the reader has scrolled on.
 */
import type { Browser, Page } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { loginAs } from "./fixtures.ts";
import { expect, test } from "./page-test.ts";
import { hydrated, operatorChapters } from "./reader-helpers.ts";

// 360 px as a phone has it (scrollbars drawn over the page); 390 and 1280 with a desktop's
// scrollbar gutter of 15 px, the narrower case.
const SIZES = [
  { width: 360, height: 740, isMobile: true },
  { width: 390, height: 844, isMobile: false },
  { width: 1280, height: 800, isMobile: false },
] as const;
const THEMES = ["light", "dark"] as const;

async function open(browser: Browser, baseURL: string, size: (typeof SIZES)[number], theme: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: size.width, height: size.height }, isMobile: size.isMobile, hasTouch: size.isMobile });
  await context.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
  return context.newPage();
}

interface HeaderLook {
  menu: string;
  brand: string;
  header: string;
  /** The header's left part, the menu and the name (what every page shares), as a PNG. */
  picture: Buffer;
}

/** Where the menu and the name are, and how the header's left part looks, on the page now shown. */
async function look(page: Page): Promise<HeaderLook> {
  const header = page.locator("body > header");
  const menu = header.getByRole("button", { name: "Open the chapter list" });
  const brand = header.getByRole("link", { name: "The System", exact: true });
  await expect(menu).toBeVisible();
  await expect(brand).toBeVisible();
  await expect(brand).toHaveAttribute("href", "/");
  const box = async (locator: typeof menu) => JSON.stringify(await locator.boundingBox());
  // No pointer over the header, the font in: what any reader sees at rest.
  await page.mouse.move(5, 700);
  await page.evaluate(() => document.fonts.ready);
  return { menu: await box(menu), brand: await box(brand), header: await box(header), picture: await page.screenshot({ clip: { x: 0, y: 0, width: 150, height: 56 } }) };
}

/** Nothing in the header overlaps, and nothing runs past the window. */
async function fits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const visible = [...document.querySelectorAll<HTMLElement>("body > header :is(a, button)")].filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility === "visible");
    const boxes = visible.map((el) => ({ name: el.textContent!.trim() || el.ariaLabel || el.id, box: el.getBoundingClientRect() }));
    const problems: string[] = [];
    for (const { name, box } of boxes) if (box.left < 0 || box.right > document.documentElement.clientWidth) problems.push(`${name} runs past the window`);
    for (const [index, a] of boxes.entries()) {
      for (const b of boxes.slice(index + 1)) {
        if (a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom) problems.push(`${a.name} overlaps ${b.name}`);
      }
    }
    return problems;
  });
}

for (const size of SIZES) {
  for (const theme of THEMES) {
    test(`${size.width} px, ${theme}: the menu and the site's name stand at one place and look the same on every page`, async ({ browser, site, request }) => {
      const [first] = await operatorChapters(request);
      const page = await open(browser, site.url, size, theme);
      // Each kind of page: a chapter, a text page, sign-in, the wide pages, the scan, the 404 (and /profile below).
      const pages = [`/${first!.slug}`, "/about", "/resume", "/apply", "/assessment", "/admin", "/no-such-page"];
      const looks: Array<[string, HeaderLook]> = [];
      // A returning reader: a browser's first page stays in the face's fallback (issue 44: 1), every later one is in the face.
      await page.goto(pages[0]!);
      await hydrated(page);
      for (const address of pages) {
        await page.goto(address);
        await hydrated(page);
        looks.push([address, await look(page)]);
        expect(await fits(page), address).toEqual([]);
      }
      await loginAs(page, "Architect");
      await page.goto("/profile");
      await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
      looks.push(["/profile", await look(page)]);
      expect(await fits(page), "/profile").toEqual([]);

      const [, reference] = looks[0]!;
      expect(JSON.parse(reference.header)).toMatchObject({ x: 0, y: 0, height: 56 });
      for (const [address, seen] of looks) {
        expect({ address, menu: seen.menu, brand: seen.brand, header: seen.header }).toEqual({ address, menu: reference.menu, brand: reference.brand, header: reference.header });
        expect(seen.picture.equals(reference.picture), `${address}: the header's menu and name look different`).toBe(true);
      }
      // The menu stands above the rail's buttons where there is a rail (from 640 px).
      if (size.width >= 640) {
        await page.goto(`/${first!.slug}`);
        const rail = (await page.getByTestId("rail").getByRole("link").first().boundingBox())!;
        expect(Math.abs(JSON.parse(reference.menu).x - rail.x)).toBeLessThanOrEqual(0.5);
      }
      if (size.width !== 360) {
        for (const address of [`/${first!.slug}`, "/admin"]) {
          await page.goto(address);
          await hydrated(page);
          expect(await seriousViolations(page), address).toEqual([]);
        }
      }
      await page.context().close();
    });
  }
}

for (const theme of THEMES) {
  test(`390 px, ${theme}: one bar above a chapter; scrolled on, it shows the chapter's title in place of the name and the links, and the menu stays`, async ({ browser, site, request }) => {
    const [first] = await operatorChapters(request);
    const page = await open(browser, site.url, SIZES[1], theme);
    await page.goto(`/${first!.slug}`);
    await hydrated(page);
    const header = page.locator("body > header");
    const title = header.locator(".site-header-title");
    // One bar: the chapter's heading is the next thing below the header.
    const heading = (await page.locator("article h1").boundingBox())!;
    const bar = (await header.boundingBox())!;
    expect(bar.height).toBe(56);
    expect(await page.evaluate(() => [...document.querySelectorAll("body *")].filter((el) => {
      const style = getComputedStyle(el);
      return (style.position === "sticky" || style.position === "fixed") && el.getClientRects().length > 0 && el.getBoundingClientRect().height > 0 && !el.closest("body > header, dialog");
    }).length), "another bar stands at the top").toBe(0);
    expect(heading.y).toBeGreaterThan(bar.y + bar.height);
    await expect(title).toBeHidden();
    await expect(header.getByRole("link", { name: "Enter The System" })).toBeVisible();

    await page.mouse.move(200, 400);
    await page.mouse.wheel(0, 700);
    await expect(title).toBeVisible();
    await expect(title).toHaveText(first!.title);
    await expect(title).toHaveCSS("opacity", "1");
    await expect(header.getByRole("link", { name: "The System", exact: true })).toBeHidden();
    await expect(header.getByRole("link", { name: "Enter The System" })).toBeHidden();
    expect((await header.boundingBox())!.y).toBe(0);
    await expect(header.getByRole("button", { name: "Open the chapter list" })).toBeInViewport({ ratio: 1 });
    await expect(header.getByRole("progressbar", { name: "Reading progress" })).toBeAttached();
    expect(await seriousViolations(page)).toEqual([]);

    // Back at the top, the name and the links return.
    await page.evaluate(() => scrollTo(0, 0));
    await expect(header.getByRole("link", { name: "Enter The System" })).toBeVisible();
    await expect(title).toBeHidden();
    await page.context().close();
  });
}

test("390 px: what takes the focus from below stops clear of the sticky header (WCAG 2.4.11), and a jump to a passage lands below it", async ({ browser, site, request }) => {
  const [first] = await operatorChapters(request);
  const page = await open(browser, site.url, SIZES[1], "light");
  for (const address of ["/apply", `/${first!.slug}`]) {
    await page.goto(address);
    await hydrated(page);
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    // The first link of the page's own text, focused from the foot of the page as Shift+Tab would.
    const target = page.locator("main a:visible").first();
    await target.focus();
    const [box, bar] = [(await target.boundingBox())!, (await page.locator("body > header").boundingBox())!];
    expect(box.y, address).toBeGreaterThanOrEqual(bar.y + bar.height);
  }
  const section = page.locator("[data-subsection]").first();
  await page.goto(`/${first!.slug}#${await section.getAttribute("id")}`);
  const top = (await section.boundingBox())!.y;
  expect(top).toBeGreaterThanOrEqual(56);
  expect(top).toBeLessThanOrEqual(72);
  await page.context().close();
});
