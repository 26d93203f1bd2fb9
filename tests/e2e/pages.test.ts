/**
 * The public pages (SPEC.md section 2): /apply, /in-person and its modal, the static pages, the
 * 404 page, and what search engines and link previews read.
 */
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { hydrated, operatorChapters } from "./reader-helpers.ts";

test("/apply shows the three paths with every text and constant of the spec", async ({ page }) => {
  await page.goto("/apply");
  await expect(page.getByRole("heading", { level: 1, name: "Choose Your Path" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Reading progress" })).toBeAttached();
  const main = page.locator("main");
  for (const text of [
    "$0",
    "per first call",
    "60 minutes",
    "What people spend years on",
    "$2,000",
    "Enrollment reopens July 1st.",
    "Space is limited. Selection is non-negotiable.",
    "4 deep 1:1 sessions per month",
    "Full access to Level 1 and Level 2",
    "Private signal-based tasks",
    "24h direct message access",
    "Codex of Self",
    "$8,000",
    "Fully enrolled.",
    "relinquishes",
    "8 private 1:1 sessions per month",
    "Levels 1, 2 and 3",
    "response within 12h",
    "private strategic network",
    "quarterly in-person deep-dive in Europe",
    "No call, no application.",
    "within 24 hours",
  ]) {
    await expect(main).toContainText(text);
  }
});

test("/apply: 'Claim Your Call' and 'Apply' open the configured scheduling pages in a new tab; 'Closed' does nothing", async ({ page }) => {
  await page.goto("/apply");
  const call = page.getByRole("link", { name: /^Claim Your Call/ });
  await expect(call).toHaveAttribute("href", /^https:\/\//);
  await expect(call).toHaveAttribute("target", "_blank");
  await expect(call).toHaveAttribute("rel", /noopener/);
  const apply = page.locator("main").getByRole("link", { name: /^Apply/ });
  await expect(apply).toHaveAttribute("href", /^https:\/\//);
  await expect(apply).toHaveAttribute("target", "_blank");
  await expect(apply).toHaveAttribute("rel", /noopener/);
  expect(await call.getAttribute("href")).not.toBe(await apply.getAttribute("href"));
  await expect(page.getByRole("button", { name: "Closed" })).toBeDisabled();
});

test("/in-person tells its story and opens the 'Private Meeting Request' modal", async ({ page }) => {
  await page.goto("/in-person");
  await expect(page.locator("main")).toContainText("Europe");
  await expect(page.locator("main")).toContainText("No promises");
  await expect(page.locator("main")).toContainText("honest");
  const open = page.getByRole("button", { name: "Request a Private Meeting" });
  const modal = page.getByRole("dialog", { name: "Private Meeting Request" });
  await expect(modal).toBeHidden();

  await open.click();
  await expect(modal).toBeVisible();
  await modal.getByRole("button", { name: "Close" }).click();
  await expect(modal).toBeHidden();
  await expect(open).toBeFocused();

  await open.click();
  await page.mouse.click(5, 5);
  await expect(modal).toBeHidden();

  await open.click();
  await page.keyboard.press("Escape");
  await expect(modal).toBeHidden();
});

test("the meeting request needs all five fields, then closes and clears without any request leaving the page", async ({ page }) => {
  await page.goto("/in-person");
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  const open = page.getByRole("button", { name: "Request a Private Meeting" });
  const modal = page.getByRole("dialog", { name: "Private Meeting Request" });
  await open.click();
  const labels = ["Name or codename", "City", "Preferred date", "What transformation are you working towards?", "Why meet in person?"];
  for (const label of labels) await expect(modal.getByLabel(label)).toHaveAttribute("required", "");

  // One field missing: the form stays open.
  await modal.getByLabel("Name or codename").fill("North");
  await modal.getByRole("button", { name: "Send Request" }).click();
  await expect(modal).toBeVisible();

  const requests: string[] = [];
  // Typing "Gdańsk" may fetch the font's latin-ext file (its ń): a font, not the form leaving.
  page.on("request", (request) => {
    if (request.resourceType() !== "font") requests.push(request.url());
  });
  const logged: string[] = [];
  page.on("console", (message) => logged.push(message.text()));
  await modal.getByLabel("City").fill("Gdańsk");
  await modal.getByLabel("Preferred date").fill("Late spring");
  await modal.getByLabel("What transformation are you working towards?").fill("Fewer automatic yeses.");
  await modal.getByLabel("Why meet in person?").fill("Some things only show across a table.");
  await modal.getByRole("button", { name: "Send Request" }).click();
  await expect(modal).toBeHidden();
  await page.waitForTimeout(500);
  expect(requests).toEqual([]);
  expect(logged.join("\n")).toContain("Private meeting request");

  await open.click();
  for (const label of labels) await expect(modal.getByLabel(label)).toHaveValue("");
});

const staticPages = [
  { path: "/about", heading: "About", texts: ["Poland", "not therapy"] },
  {
    path: "/privacy-policy",
    heading: "Privacy Policy",
    texts: [
      "January 2, 2025",
      "GDPR",
      "Poland",
      "Personal information",
      "Booking details",
      "Payment data",
      "Technical data",
      "scheduling provider",
      "Payment providers",
      "Email providers",
      "essential cookies",
      "access",
      "correct",
      "withdraw consent",
      "deleted",
      "complain",
    ],
  },
  {
    path: "/terms-of-service",
    heading: "Terms of Service",
    texts: ["at least 18", "Free 1:1 calls", "Paid tiers", "US dollars (USD)", "All sales are final", "within 24 hours", "Polish law", "amount you have paid"],
  },
  {
    path: "/disclaimer",
    heading: "Disclaimer",
    texts: ["not therapy", "not medical advice", "legal or financial advice", "No guarantees", "Testimonials are not typical"],
  },
];

for (const { path, heading, texts } of staticPages) {
  test(`${path} is a static page with its heading and every point of the spec`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response!.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    for (const text of texts) await expect(page.locator("main")).toContainText(text);
  });
}

test("the footer links every static page, and every page has the shared header", async ({ page }) => {
  await page.goto("/about");
  const footer = page.getByRole("contentinfo");
  for (const href of ["/privacy-policy", "/terms-of-service", "/in-person", "/about", "/disclaimer"]) {
    await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
  }
  await expect(page.getByTestId("menu-toggle")).toBeVisible();
});

for (const path of ["/deep/unknown/path", "/no.such.page", "/assets/missing.css", "/chapter-shell", "/chapter-not-found", "/page-notice"]) {
  test(`an unknown address (${path}) answers 404 with '404 Page Not Found'`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
  });
}

for (const path of ["/no-such-page", "/not-a-chapter"]) {
  test(`a chapter address with no chapter (${path}) answers 404 with 'Chapter not found'`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Chapter not found" })).toBeVisible();
    await expect(page.getByText("The requested chapter could not be found.")).toBeVisible();
  });
}

test("the admin's tier preview says what it cannot show in the site's own look and words (issue 22: 12)", async ({ page }) => {
  for (const size of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size);
    const response = await page.goto("/admin/preview/1?tier=Operator");
    expect(response!.status()).toBe(401);
    expect(response!.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to preview" })).toBeVisible();
    await expect(page.getByText("Previews are for the admin: sign in to the admin panel, then open the preview again.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in to the admin panel" })).toHaveAttribute("href", "/admin");
    // The site's header, footer and type, not a bare page.
    await expect(page.getByTestId("menu-toggle")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    const font = await page.getByRole("heading", { level: 1 }).evaluate((h1) => getComputedStyle(h1).fontFamily);
    expect(font).toContain("Source Serif 4");
    expect(await seriousViolations(page)).toEqual([]);
  }
});

test("no text page glues a word to a link: the space before and after each inline link is kept", async ({ page, request }) => {
  const [first] = await operatorChapters(request);
  for (const path of ["/about", "/terms-of-service", "/privacy-policy", "/disclaimer", "/in-person", "/apply", `/${first!.slug}`]) {
    await page.goto(path);
    const glued = await page.locator("main").evaluate((main) =>
      [...main.querySelectorAll("p a, li a")].flatMap((link) => {
        const before = link.previousSibling?.textContent ?? "";
        const after = link.nextSibling?.textContent ?? "";
        const problems: string[] = [];
        if (/[\p{L}\p{N}]$/u.test(before)) problems.push(`"…${before.slice(-12)}|${link.textContent}"`);
        if (/^[\p{L}\p{N}]/u.test(after)) problems.push(`"${link.textContent}|${after.slice(0, 12)}…"`);
        return problems;
      }),
    );
    expect(glued, path).toEqual([]);
  }
});

test("every public page has a title, description, canonical URL and Open Graph tags", async ({ page, request }) => {
  const [first] = await operatorChapters(request);
  for (const path of [`/${first!.slug}`, "/apply", "/in-person", "/about", "/privacy-policy", "/terms-of-service", "/disclaimer"]) {
    await page.goto(path);
    await expect(page).toHaveTitle(/\S/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /\S.{20,}/);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(new URL(canonical!).pathname).toBe(path);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /\S/);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", /\S/);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", canonical!);
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  }
});

test("the sitemap lists the public pages only; robots.txt points to it", async ({ request }) => {
  const chapters = (await (await request.get("/api/chapters")).json()) as Array<{ slug: string; level: string | null }>;
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  for (const path of ["/", "/apply", "/in-person", "/about", "/privacy-policy", "/terms-of-service", "/disclaimer"]) {
    expect(paths).toContain(path);
  }
  for (const chapter of chapters) {
    if ((chapter.level ?? "Operator") === "Operator") expect(paths).toContain(`/${chapter.slug}`);
    else expect(paths).not.toContain(`/${chapter.slug}`);
  }
  for (const path of ["/resume", "/profile", "/admin"]) expect(paths).not.toContain(path);
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/Sitemap: https?:\/\/\S+\/sitemap\.xml/);
});
