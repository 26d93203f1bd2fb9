/**
 * The chapter reader (SPEC.md sections 2, 4 and 9): static HTML, progress, Previous/Next and the
 * keys, the rail, the drawer, the level switch, the redirect, the header links, call-to-action
 * buttons and continue reading.
 *
 * Each behaviour is checked twice (issue 13): before the islands wake, when only the page script
 * runs (src/scripts/page.ts) and the test's own touch is what wakes them, and after they are up.
 */
import { expect, test } from "./page-test.ts";
import type { Page } from "@playwright/test";
import { loginAs } from "./fixtures.ts";
import { hold } from "./hold.ts";
import { asleep, awake, hydrated, operatorChapters, type ListedChapter } from "./reader-helpers.ts";

let chapters: ListedChapter[];

test.beforeAll(async ({ request }) => {
  chapters = await operatorChapters(request);
  expect(chapters.length).toBeGreaterThanOrEqual(3);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a chapter page is complete, readable HTML: title, content, numbered subsections, photos, links", async ({ page, request }) => {
    const chapter = chapters[0]!;
    const parts = (await (await request.get(`/api/chapters/${chapter.id}/subsections`)).json()) as Array<{ title: string; photo: string | null; order: number }>;
    await page.goto(`/${chapter.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: chapter.title })).toBeVisible();
    const sections = page.locator("[data-subsection]");
    await expect(sections).toHaveCount(parts.length);
    const sorted = [...parts].sort((a, b) => a.order - b.order);
    for (const [index, part] of sorted.entries()) {
      const section = sections.nth(index);
      await expect(section.getByRole("heading", { level: 2 })).toContainText(part.title);
      await expect(section.locator("p").first()).toHaveText(String(index + 1).padStart(2, "0"));
    }
    const photo = page.locator("[data-subsection] img").first();
    await expect(photo).toHaveAttribute("alt", /\S/);
    expect(await photo.evaluate((img) => getComputedStyle(img).maxHeight)).toBe("300px");
    // Photos load lazily: they come after the chapter's opening text.
    for (const img of await page.locator("[data-subsection] img").all()) await expect(img).toHaveAttribute("loading", "lazy");
    // Rail, drawer list and Next work as plain links.
    await expect(page.getByRole("navigation", { name: "Chapter rail" }).getByRole("link")).toHaveCount(chapters.length);
    await expect(page.getByTestId("next")).toHaveAttribute("href", `/${chapters[1]!.slug}`);
  });

  test("/ goes to the first chapter (its refresh), and still links to it", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(`/${chapters[0]!.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: chapters[0]!.title })).toBeVisible();
  });
});

const PHASES = ["before the islands wake", "after the islands wake"] as const;
type Phase = (typeof PHASES)[number];

/** The page as each phase needs it: the navigator still asleep, or every island up. */
async function ready(page: Page, phase: Phase): Promise<void> {
  await page.waitForLoadState();
  if (phase === "after the islands wake") return awake(page);
  await hydrated(page);
  expect(await asleep(page, "Navigator"), "the navigator is still asleep").toBe(true);
}

for (const phase of PHASES) {
  test.describe(phase, () => {
    test("the progress bar follows the scroll from 0 to 100 and the chapter title stays in view in the header", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      const bar = page.getByRole("progressbar", { name: "Reading progress" });
      await expect(bar).toHaveAttribute("aria-valuenow", "0");
      await page.evaluate(() => window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) / 2));
      await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThan(30);
      await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow"))).toBeLessThan(70);
      // What a reader sees: the bar's drawn width follows the value.
      const drawn = () =>
        page.locator("#reading-progress [data-bar]").evaluate((el) => el.getBoundingClientRect().width / el.parentElement!.getBoundingClientRect().width);
      await expect.poll(drawn).toBeGreaterThan(0.3);
      await expect.poll(drawn).toBeLessThan(0.7);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(bar).toHaveAttribute("aria-valuenow", "100");
      await expect.poll(drawn).toBeCloseTo(1, 2);
      // The sticky chapter title: in the one header, at the top, with the progress bar along it.
      const header = page.locator("body > header");
      await expect(header.locator(".site-header-title")).toHaveText(chapters[0]!.title);
      await expect(header.locator(".site-header-title")).toHaveCSS("opacity", "1");
      await expect(header.locator(".site-header-title")).toBeVisible();
      const box = (await header.boundingBox())!;
      expect(box.y).toBe(0);
      expect(box.height).toBeLessThanOrEqual(57);
      expect(await header.locator("#reading-progress").count()).toBe(1);
    });

    test("Previous and Next move within the level; the first chapter has no Previous, the last no Next", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      await expect(page.getByTestId("previous")).toHaveCount(0);
      await page.getByTestId("next").click();
      await expect(page).toHaveURL(`/${chapters[1]!.slug}`);
      await page.getByTestId("previous").click();
      await expect(page).toHaveURL(`/${chapters[0]!.slug}`);
      await page.goto(`/${chapters.at(-1)!.slug}`);
      await expect(page.getByTestId("next")).toHaveCount(0);
    });

    test("ArrowRight and l go forward, ArrowLeft and h go back, one chapter a press", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      for (const [key, to] of [
        ["ArrowRight", 1],
        ["l", 2],
        ["ArrowLeft", 1],
        ["h", 0],
      ] as const) {
        await ready(page, phase);
        await page.keyboard.press(key);
        await expect(page).toHaveURL(`/${chapters[to]!.slug}`);
      }
    });

    test("the keys do nothing while focus is in a text field", async ({ page }) => {
      await page.goto(`/${chapters[1]!.slug}`);
      await ready(page, phase);
      // A subsection's Note box (issue 32), the page's own text field.
      await page.locator("details.note > summary").first().click();
      const field = page.getByLabel(/^Your note on /).first();
      await field.focus();
      for (const key of ["l", "h", "ArrowRight", "ArrowLeft"]) await field.press(key);
      await page.waitForTimeout(400);
      await expect(page).toHaveURL(`/${chapters[1]!.slug}`);
      await expect(field).toHaveValue("lh");
    });

    test("the rail numbers the level's chapters from 00 and marks the current one", async ({ page }) => {
      await page.goto(`/${chapters[1]!.slug}`);
      await ready(page, phase);
      const rail = page.getByRole("navigation", { name: "Chapter rail" });
      const links = rail.getByRole("link");
      await expect(links).toHaveText(chapters.map((_, i) => String(i).padStart(2, "0")));
      await expect(rail.getByRole("link", { name: chapters[1]!.title })).toHaveAttribute("aria-current", "page");
      expect((await rail.boundingBox())!.width).toBe(64);
    });

    test("the rail hides on scrolling down and comes back on scrolling up and near the top", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      const rail = page.getByTestId("rail");
      await expect(rail).toHaveAttribute("data-visible", "true");
      await page.mouse.move(400, 400);
      await page.mouse.wheel(0, 600);
      await expect(rail).toHaveAttribute("data-visible", "false");
      await expect.poll(async () => (await rail.boundingBox())!.x).toBeLessThan(-32);
      await page.mouse.wheel(0, -200);
      await expect(rail).toHaveAttribute("data-visible", "true");
      await page.mouse.wheel(0, 400);
      await expect(rail).toHaveAttribute("data-visible", "false");
      await page.evaluate(() => window.scrollTo(0, 10));
      await expect(rail).toHaveAttribute("data-visible", "true");
    });

    test("the drawer is a dialog: focus moves in, Tab stays inside, Escape closes and focus returns; body scroll is locked", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      // The chapter bar's menu button: a reader page's one menu control.
      const toggle = page.getByRole("button", { name: "Open the chapter list" });
      await toggle.click();
      const drawer = page.getByRole("dialog", { name: "Chapters" });
      await expect(drawer).toBeVisible();
      expect(Math.round((await drawer.boundingBox())!.width)).toBe(320);
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press("Tab");
        expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press("Shift+Tab");
      expect(await drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      // The rail stays visible while the drawer is open, even after scrolling down.
      await expect(page.getByTestId("rail")).toHaveAttribute("data-visible", "true");
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();
      await expect(toggle).toBeFocused();
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
    });

    test("the drawer holds the level's chapters, the level switch and the footer links; it closes on its close button and the backdrop", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      await page.getByRole("button", { name: "Open the chapter list" }).click();
      const drawer = page.getByRole("dialog", { name: "Chapters" });
      await expect(drawer.getByTestId("drawer-list").getByRole("link")).toHaveCount(chapters.length);
      await expect(drawer.getByRole("link", { name: chapters[0]!.title })).toHaveAttribute("aria-current", "page");
      await expect(drawer.getByRole("button", { name: "Operator" })).toHaveAttribute("aria-pressed", "true");
      for (const locked of ["Architect", "Mastermind"]) {
        const button = drawer.getByRole("button", { name: locked });
        await expect(button).toHaveAccessibleDescription(/^Locked/);
        await expect(button.locator("svg")).toHaveCount(1);
      }
      for (const href of ["/privacy-policy", "/terms-of-service", "/in-person", "/about", "/disclaimer"]) {
        await expect(drawer.locator(`a[href="${href}"]`)).toHaveCount(1);
      }
      await drawer.getByRole("button", { name: "Close the chapter list" }).click();
      await expect(drawer).toBeHidden();
      await page.getByRole("button", { name: "Open the chapter list" }).click();
      await expect(drawer).toBeVisible();
      await page.mouse.click(1000, 400);
      await expect(drawer).toBeHidden();
    });

    test("choosing a locked level goes to /resume", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      await page.getByRole("button", { name: "Open the chapter list" }).click();
      // Locked, not disabled: it answers a click by sending the reader to log in.
      const architect = page.getByRole("dialog").getByRole("button", { name: "Architect" });
      await expect(architect).toBeInViewport({ ratio: 1 });
      await architect.click({ force: true });
      await expect(page).toHaveURL(/\/resume\?level=Architect$/);
    });

    test("the header shows 'Enter The System' and 'Apply' to visitors and 'My Profile' to clients", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      const account = page.getByRole("navigation", { name: "Account" });
      await expect(account.getByRole("link", { name: "Enter The System" })).toHaveAttribute("href", "/resume");
      await expect(account.getByRole("link", { name: "Apply" })).toHaveAttribute("href", "/apply");
      await expect(account.getByRole("link", { name: "My Profile" })).toBeHidden();

      await page.route("**/api/auth/session", (route) => route.fulfill({ json: { authenticated: true, level: "Architect" } }));
      await page.evaluate(() => localStorage.setItem("systemAuth", JSON.stringify({ isAuthenticated: true, accessLevel: "Architect" })));
      await page.reload();
      await expect(account.getByRole("link", { name: "My Profile" })).toHaveAttribute("href", "/profile");
      await expect(account.getByRole("link", { name: "My Profile" })).toBeVisible();
      await expect(account.getByRole("link", { name: "Enter The System" })).toBeHidden();
    });

    test("the theme starts dark, toggles, and the choice is kept in book-theme across pages and reloads", async ({ page }) => {
      await page.goto(`/${chapters[0]!.slug}`);
      const html = page.locator("html");
      await expect(html).toHaveClass(/dark/);
      await ready(page, phase);
      await page.getByRole("button", { name: "Switch to light theme" }).click();
      await expect(html).not.toHaveClass(/dark/);
      expect(await page.evaluate(() => localStorage.getItem("book-theme"))).toBe("light");
      await page.goto("/apply");
      await expect(html).not.toHaveClass(/dark/);
      await page.reload();
      await expect(html).not.toHaveClass(/dark/);
      // (The switch is the page script's, which comes after the first paint: decision 0032.)
      await hydrated(page);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(html).toHaveClass(/dark/);
      expect(await page.evaluate(() => localStorage.getItem("book-theme"))).toBe("dark");
    });

    test("continue reading: coming back to a chapter offers the subsection being read", async ({ page }) => {
      const chapter = chapters[0]!;
      await page.goto(`/${chapter.slug}`);
      await ready(page, phase);
      const second = page.locator("[data-subsection]").nth(1);
      const title = (await second.getAttribute("data-subsection"))!;
      await second.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 40));
      await expect.poll(() => page.evaluate(() => localStorage.getItem("reader-place"))).toContain(title);

      await page.goto("/about");
      await page.goto(`/${chapter.slug}`);
      await ready(page, phase);
      const offer = page.getByRole("region", { name: "Continue reading" });
      await expect(offer).toContainText(title);
      await offer.getByRole("link", { name: "Continue reading" }).click();
      await expect(offer).toBeHidden();
      await expect(second.getByRole("heading", { level: 2 })).toBeInViewport();
    });

    if (phase === "before the islands wake") {
      test("pointing at a rail button before the navigator is up wakes it, and the button's title shows", async ({ page }) => {
        await page.goto(`/${chapters[0]!.slug}`);
        await ready(page, phase);
        const link = page.getByRole("navigation", { name: "Chapter rail" }).getByRole("link").nth(1);
        await link.hover();
        await expect(page.getByRole("tooltip")).toHaveText(chapters[1]!.title);
        expect(await asleep(page, "Navigator")).toBe(false);
      });
      return;
    }

    // Timed with a paused clock, so only once the island is up (before, the tooltip's 700 ms start
    // when the island wakes, a few milliseconds after the pointer arrives: see the test above).
    test("choosing a chapter in the drawer navigates after 300 ms; the list scrolls to top 100 ms after opening", async ({ page }) => {
      // A fake clock, paused once the page has hydrated: the delays are stepped through, not raced.
      await page.clock.install();
      await page.setViewportSize({ width: 800, height: 260 });
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      await page.clock.pauseAt(Date.now() + 1000);

      await page.getByRole("button", { name: "Open the chapter list" }).click();
      const list = page.getByTestId("drawer-list");
      const scrollTop = () => list.evaluate((el) => el.scrollTop);
      // (The island draws the open drawer after the click returns: scrolled once it is there.)
      await expect(list).toBeVisible();
      await expect.poll(() => list.evaluate((el) => (el.scrollTop = el.scrollHeight))).toBeGreaterThan(0);
      expect(await scrollTop()).toBeGreaterThan(0);
      await page.clock.runFor(99);
      expect(await scrollTop()).toBeGreaterThan(0);
      await page.clock.runFor(1);
      expect(await scrollTop()).toBe(0);

      await page.setViewportSize({ width: 800, height: 800 });
      const target = chapters[2]!;
      await list.getByRole("link", { name: target.title }).click();
      await page.clock.runFor(299);
      expect(page.url()).toMatch(new RegExp(`/${chapters[0]!.slug}$`));
      await page.clock.runFor(1);
      await page.waitForURL(`/${target.slug}`);
    });

    test("a rail button shows its chapter's title after 700 ms, the next one at once, and for keyboard focus too", async ({ page }) => {
      await page.clock.install();
      await page.goto(`/${chapters[0]!.slug}`);
      await ready(page, phase);
      await page.clock.pauseAt(Date.now() + 1000);
      const rail = page.getByRole("navigation", { name: "Chapter rail" });
      const button = (n: number) => rail.getByRole("link").nth(n);
      const tooltip = page.getByRole("tooltip");
      // Its name starts with what it shows (WCAG 2.5.3), then says what it is.
      await expect(button(1)).toHaveAccessibleName(`01 ${chapters[1]!.title}`);

      await button(1).hover();
      await page.clock.runFor(699);
      await expect(tooltip).toHaveCount(0);
      await page.clock.runFor(1);
      await expect(tooltip).toHaveText(chapters[1]!.title);
      // Beside its button, right of the rail, at its height.
      const [tip, box] = [(await tooltip.boundingBox())!, (await button(1).boundingBox())!];
      expect(tip.x).toBeGreaterThanOrEqual(64);
      expect(Math.abs(tip.y + tip.height / 2 - (box.y + box.height / 2))).toBeLessThan(2);

      // Along the rail: the next title at once (the 300 ms skip delay).
      await button(2).hover();
      await expect(tooltip).toHaveText(chapters[2]!.title);

      // Away for longer than the skip delay: the delay applies again, to keyboard focus as well.
      await page.mouse.move(600, 400);
      await expect(tooltip).toHaveCount(0);
      await page.clock.runFor(400);
      await button(3).focus();
      await page.clock.runFor(699);
      await expect(tooltip).toHaveCount(0);
      await page.clock.runFor(1);
      await expect(tooltip).toHaveText(chapters[3]!.title);
      await page.keyboard.press("Escape");
      await expect(tooltip).toHaveCount(0);
    });
  });
}

test("a chapter that is not in the selected level's list redirects to the list's first chapter", async ({ page }) => {
  const [, second, ...rest] = chapters;
  await page.route("**/api/chapters", (route) => route.fulfill({ json: [second, ...rest] }));
  await page.goto(`/${chapters[0]!.slug}`);
  // An anonymous reader's page fetches the list once the reader reaches for it (issue 45: 1).
  await page.getByTestId("rail").hover();
  await expect(page).toHaveURL(`/${second!.slug}`);
});

test("the stored theme is applied before first paint", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("book-theme", "light"));
  // The class is already right when the first stylesheet-blocking point is reached.
  await page.goto(`/${chapters[0]!.slug}`, { waitUntil: "commit" });
  await page.waitForSelector("body");
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
});

test("call-to-action buttons: assessment goes to /assessment, schedule to the top of /apply", async ({ page }) => {
  // The seed's Operator chapters hold these two actions (transform is covered by the renderer's unit tests).
  await page.goto(`/${chapters[0]!.slug}`);
  const assessment = page.locator('a.cta-button[data-cta="assessment"]').first();
  await expect(assessment).toHaveAttribute("href", "/assessment");
  await assessment.click();
  await expect(page).toHaveURL(/\/assessment$/);

  const withSchedule = chapters.at(-1)!;
  await page.goto(`/${withSchedule.slug}`);
  const schedule = page.locator('a.cta-button[data-cta="schedule"]').last();
  await schedule.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await schedule.click();
  await expect(page).toHaveURL(/\/apply$/);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByRole("heading", { level: 1, name: "Choose Your Path" })).toBeInViewport();
});

/*
 * Issue 44: 2. A reader of the Operator level goes from / straight to its first chapter: nothing of
 * / is painted or fetched meanwhile, with the chapter's answer held back a while (a slow phone).
 */
test("/ takes a reader not signed in straight to the first chapter: nothing of / painted, none of its files fetched", async ({ page }) => {
  await page.addInitScript(() => {
    if (location.pathname !== "/") return;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) sessionStorage.setItem(`painted-${entry.name}`, "/");
    }).observe({ type: "paint", buffered: true });
  });
  const asked: string[] = [];
  page.on("request", (request) => asked.push(new URL(request.url()).pathname));
  await page.route(`**/${chapters[0]!.slug}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue();
  });
  await page.goto("/");
  await expect(page).toHaveURL(`/${chapters[0]!.slug}`);
  await hydrated(page);
  expect(asked.slice(0, 2)).toEqual(["/", `/${chapters[0]!.slug}`]);
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("painted-")))).toEqual([]);
  // (Replaced, so Back does not lead to / and forward again: the new tab's blank page, then the chapter.)
  expect(await page.evaluate(() => history.length)).toBe(2);
});

/** A member reading the Architect level: / loads the list and opens that level's first chapter (SPEC's states). */
async function architectReader(page: Page): Promise<ListedChapter> {
  await loginAs(page, "Architect");
  await page.addInitScript(() => localStorage.setItem("selectedLevel", "Architect"));
  const all = (await (await page.request.get("/api/chapters")).json()) as ListedChapter[];
  return all.filter((chapter) => chapter.level === "Architect").sort((a, b) => a.order - b.order)[0]!;
}

test("/ shows 'Take a Breath' while loading, then opens the first chapter of the level", async ({ page }) => {
  const first = await architectReader(page);
  const release = await hold(page, "**/api/chapters");
  await page.goto("/");
  await expect(page.getByRole("status").filter({ hasText: "Take a Breath" })).toBeVisible();
  release();
  await expect(page).toHaveURL(`/${first.slug}`);
});

test("/ shows the list error as 'Error loading chapters: {message}'", async ({ page }) => {
  await architectReader(page);
  await page.route("**/api/chapters", (route) => route.fulfill({ status: 503, body: "Down for a moment" }));
  await page.goto("/");
  await expect(page.getByText("Error loading chapters: 503: Down for a moment")).toBeVisible();
});

test("/ retries a failed chapter list once after 1 s, and shows the list it then gets", async ({ page }) => {
  const first = await architectReader(page);
  const asked: number[] = [];
  await page.route("**/api/chapters", async (route) => {
    asked.push(Date.now());
    if (asked.length === 1) await route.fulfill({ status: 503, body: "Down for a moment" });
    else await route.fallback();
  });
  await page.goto("/");
  await expect(page).toHaveURL(`/${first.slug}`);
  expect(asked).toHaveLength(2);
  expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(950);
});

test("/ opens the selected level's first chapter for a member whose browser stored no sign-in, however late the session answers", async ({ page }) => {
  // (Signed in through the API: the browser holds the session cookie, and no stored sign-in.)
  const first = await architectReader(page);
  const release = await hold(page, "**/api/auth/session");
  // The chapter list comes first; the session, after it.
  const listed = page.waitForResponse("**/api/chapters");
  await page.goto("/");
  await listed;
  release();
  await expect(page).toHaveURL(`/${first.slug}`);
});

test("/ with no chapters says 'No chapters available' and links to /admin", async ({ page }) => {
  await architectReader(page);
  await page.route("**/api/chapters", (route) => route.fulfill({ json: [] }));
  await page.goto("/");
  await expect(page.getByRole("status")).toHaveText("No chapters available");
  await expect(page.locator('main a[href="/admin"]')).toBeVisible();
});
