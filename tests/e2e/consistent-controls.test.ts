/**
 * Consistent controls (issue 22, point 10): 'Enter' waits for a real password, links to another
 * site say so, focus rings are not cut off, and buttons, list markers look the same everywhere.
 * (A locked level's button is shown with its lock (SPEC.md section 6) and is not marked disabled,
 * as choosing it acts (section 4): it says it is locked instead, as tests/e2e/access.test.ts checks.)
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { codeFor } from "./fixtures.ts";
import { awake, hydrated, operatorChapters } from "./reader-helpers.ts";

const drawerOf = (page: Page) => page.getByRole("dialog", { name: "Chapters" });

test("'Enter' stays disabled while the password is only spaces", async ({
  page,
}) => {
  await page.goto("/resume");
  await hydrated(page);
  const enter = page.getByRole("button", { name: "Enter", exact: true });
  await page.getByLabel("Access Code").fill(codeFor("Architect").login);
  await page.getByLabel("Password").fill("   ");
  await expect(enter).toBeDisabled();
  await page.getByLabel("Password").press("Enter");
  await expect(
    page.getByRole("heading", { name: "Enter The System" }),
  ).toBeVisible();
  await page.getByLabel("Password").fill(" x ");
  await expect(enter).toBeEnabled();
  // And a login of spaces only, too.
  await page.getByLabel("Access Code").fill("   ");
  await expect(enter).toBeDisabled();
});

test("every link to another site says so and carries rel=noopener", async ({
  page,
}) => {
  const [first] = await operatorChapters(page.request);
  let seen = 0;
  for (const path of [
    "/",
    `/${first!.slug}`,
    "/apply",
    "/resume",
    "/in-person",
    "/about",
    "/assessment",
    "/privacy-policy",
    "/terms-of-service",
    "/disclaimer",
  ]) {
    await page.goto(path);
    // "/" goes on to the first chapter by itself: let it arrive, or the next visit races that move.
    if (path === "/") await expect(page).toHaveURL(new RegExp(`/${first!.slug}$`));
    await hydrated(page);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLAnchorElement>("a[href]")]
        .filter((a) => /^https?:$/.test(a.protocol) && a.host !== location.host)
        .map((a) => ({ href: a.href, rel: a.rel, text: a.textContent ?? "" })),
    );
    for (const link of links) {
      expect(link.rel, `${path}: ${link.href}`).toMatch(/\bnoopener\b/);
      expect(link.text, `${path}: ${link.href}`).toContain(
        "(opens another site",
      );
    }
    seen += links.length;
  }
  // /apply's two scheduling links at least: the check above ran on something.
  expect(seen).toBeGreaterThanOrEqual(2);
});

test("a focused control in the drawer's list shows its whole focus ring", async ({
  page,
}) => {
  const [first] = await operatorChapters(page.request);
  await page.goto(`/${first!.slug}`);
  await page.waitForLoadState();
  await awake(page);
  // By keyboard, so focus shows as it does for a keyboard user (:focus-visible).
  await page.getByRole("button", { name: "Open the chapter list" }).focus();
  await page.keyboard.press("Enter");
  const link = drawerOf(page)
    .getByTestId("drawer-list")
    .getByRole("link")
    .first();
  await expect(link).toBeVisible();
  await page.waitForTimeout(400); // the drawer's slide and the list's scroll to top
  await link.focus();
  const boxes = await link.evaluate((el) => {
    const style = getComputedStyle(el);
    const ring =
      parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
    const r = el.getBoundingClientRect();
    let clip = el.parentElement;
    while (
      clip &&
      getComputedStyle(clip).overflowX === "visible" &&
      getComputedStyle(clip).overflowY === "visible"
    )
      clip = clip.parentElement;
    const c = clip!.getBoundingClientRect();
    // The clip box of a scroll container: inside its borders.
    const left = c.left + clip!.clientLeft;
    const top = c.top + clip!.clientTop;
    return {
      focusVisible: el.matches(":focus-visible"),
      outline: style.outlineStyle,
      ring: {
        left: r.left - ring,
        top: r.top - ring,
        right: r.right + ring,
        bottom: r.bottom + ring,
      },
      clip: {
        left,
        top,
        right: left + clip!.clientWidth,
        bottom: top + clip!.clientHeight,
      },
    };
  });
  expect(boxes.focusVisible).toBe(true);
  expect(boxes.outline).not.toBe("none");
  expect(boxes.ring.left).toBeGreaterThanOrEqual(boxes.clip.left);
  expect(boxes.ring.right).toBeLessThanOrEqual(boxes.clip.right);
  expect(boxes.ring.top).toBeGreaterThanOrEqual(boxes.clip.top);
});

/** What makes a button look like itself: the same for every call to action, wherever it is. */
const buttonLook = (element: Element) => {
  const style = getComputedStyle(element);
  return {
    background: style.backgroundColor,
    color: style.color,
    radius: style.borderRadius,
    size: style.fontSize,
    weight: style.fontWeight,
    spacing: style.letterSpacing,
    padding: `${style.paddingTop} ${style.paddingBottom}`,
  };
};

test("the call-to-action buttons and the list markers look the same on every page (issue 22: 10)", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const looks: Array<{ where: string; look: ReturnType<typeof buttonLook> }> = [];
  const lookAt = async (where: string, path: string, name: string | RegExp) => {
    await page.goto(path);
    await hydrated(page);
    const main = page.getByRole("main");
    const control = main.getByRole("link", { name }).or(main.getByRole("button", { name })).first();
    await expect(control).toBeVisible();
    looks.push({ where, look: await control.evaluate(buttonLook) });
  };
  await lookAt("a chapter's call to action", "/signal-and-noise", "Take the Mental Operating System Scan");
  await lookAt("/apply", "/apply", /^Claim Your Call/);
  await lookAt("/in-person", "/in-person", "Request a Private Meeting");
  await lookAt("/resume", "/resume", "Enter");
  await lookAt("/assessment", "/assessment", "Next");
  // (Next waits for an answer: compared as it looks once one is chosen.)
  await page.getByRole("radio").first().check();
  await expect(page.getByRole("button", { name: "Next" })).not.toHaveAttribute("aria-disabled", "true");
  looks[looks.length - 1] = { where: "/assessment", look: await page.getByRole("button", { name: "Next" }).evaluate(buttonLook) };
  for (const { where, look } of looks) expect(look, where).toEqual(looks[0]!.look);

  // One list marker: a short rule before each item, no bullets.
  const markers: Array<{ where: string; marker: { type: string; content: string; width: string } }> = [];
  for (const [where, path, list] of [
    ["a chapter", "/signal-and-noise", ".chapter-content ul"],
    ["/apply", "/apply", "main ul.book-list"],
    ["/privacy-policy", "/privacy-policy", "main ul"],
  ] as const) {
    await page.goto(path);
    const marker = await page.locator(list).first().evaluate((ul) => {
      const li = ul.querySelector("li")!;
      const before = getComputedStyle(li, "::before");
      return { type: getComputedStyle(ul).listStyleType, content: before.content, width: before.width };
    });
    markers.push({ where, marker });
  }
  for (const { where, marker } of markers) expect(marker, where).toEqual({ type: "none", content: '""', width: "8px" });
});
