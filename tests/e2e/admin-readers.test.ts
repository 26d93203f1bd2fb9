/**
 * The Readers tab (issue 23), on a phone (a list of cards) and a desktop (a table), in both
 * themes: a member's reading shows with where they stand; the figures sort and filter by level;
 * the CSV follows the filter; the words are defined on the screen; erasing a code's reading
 * empties its row.
 */
import type { Browser, Page } from "@playwright/test";
import { READING_TERMS } from "../../src/lib/reading-terms.ts";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { adminLogin, toast, unique } from "./admin-fixtures.ts";

/** A new Architect code that reads the second subsection of the first Architect chapter; answers its login and what it read. */
async function memberWhoRead(page: Page, browser: Browser) {
  const login = unique("Reader").replace(/\s+/g, "-");
  const issued = await page.request.post("/api/admin/access-codes", { data: { level: "Architect", login } });
  expect(issued.status(), await issued.text()).toBe(201);
  const code = (await issued.json()) as { login: string; password: string };
  const member = await browser.newContext();
  const at = (path: string) => new URL(path, page.url()).href;
  expect((await member.request.post(at("/api/auth/validate"), { data: code })).status()).toBe(200);
  const chapters = (await (await member.request.get(at("/api/chapters"))).json()) as Array<{ id: number; slug: string; title: string; level: string; order: number }>;
  const chapter = chapters.filter((c) => c.level === "Architect").sort((a, b) => a.order - b.order)[0]!;
  const parts = (await (await member.request.get(at(`/api/chapters/${chapter.id}/subsections`))).json()) as Array<{ slug: string; title: string }>;
  const beat = await member.request.post(at("/api/reading/heartbeat"), { data: { slug: chapter.slug, section: parts[1]!.slug } });
  expect(beat.status()).toBe(204);
  await member.close();
  return { login, chapter, part: parts[1]! };
}

for (const size of [
  { name: "phone", width: 390, height: 844, theme: "light" },
  { name: "desktop", width: 1280, height: 800, theme: "dark" },
] as const) {
  test(`the Readers tab shows who reads what, sorts, filters, downloads and erases (${size.name}, ${size.theme} theme)`, async ({ page, browser }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.addInitScript((value) => localStorage.setItem("book-theme", value), size.theme);
    await adminLogin(page);
    const { login, chapter, part } = await memberWhoRead(page, browser);
    await page.getByRole("tab", { name: "Readers" }).click();
    await expect(page.getByRole("heading", { name: /^Members \(\d+\)$/ })).toBeVisible();

    const phone = size.name === "phone";
    const rowOf = (name: string) => (phone ? page.getByRole("listitem").filter({ hasText: name }) : page.getByRole("row").filter({ hasText: name }));
    const row = rowOf(login);
    await expect(row).toBeVisible();
    await expect(row).toContainText("Architect");
    // The first Architect chapter is 00, as the rail numbers it (issue 34: 10).
    await expect(row).toContainText(`Architect 00: ${chapter.title}, 02 ${part.title}`);
    await expect(row).toContainText("0 min");
    // Nothing needs sideways scrolling on a phone.
    if (phone) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    // The words, defined where the figures are.
    await expect(page.getByText(READING_TERMS.finished)).toBeVisible();
    await expect(page.getByText(/Reading sessions are kept 90 days; the daily totals these tables count are kept 730 days/)).toBeVisible();

    // Sorting: by time read, most first, then least first.
    if (phone) {
      await page.getByRole("combobox", { name: "Sort by" }).first().selectOption({ label: "Time read" });
      await expect(page.getByRole("button", { name: "Descending" }).first()).toBeVisible();
    } else {
      const header = page.getByRole("columnheader", { name: "Time read" }).first();
      await header.getByRole("button").click();
      await expect(header).toHaveAttribute("aria-sort", "descending");
      await header.getByRole("button").click();
      await expect(header).toHaveAttribute("aria-sort", "ascending");
    }

    // Filtering by level hides this Architect code and the Architect chapters; the CSV follows.
    await page.getByRole("combobox", { name: "Level", exact: true }).selectOption("Mastermind");
    await expect(rowOf(login)).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Download members CSV" })).toHaveAttribute("href", "/api/admin/readers.csv?of=codes&level=Mastermind");
    await expect(page.getByRole("link", { name: "Download chapters CSV" })).toHaveAttribute("href", "/api/admin/readers.csv?of=chapters&level=Mastermind");
    await page.getByRole("combobox", { name: "Level", exact: true }).selectOption("Architect");
    await expect(rowOf(login)).toBeVisible();
    const csv = await page.request.get("/api/admin/readers.csv?of=codes&level=Architect");
    expect(await csv.text()).toContain(`${login},Architect,true,`);
    expect(await seriousViolations(page)).toEqual([]);

    // Erasing: asked first, then the row is empty.
    await page.getByRole("button", { name: `Erase reading of ${login}` }).click();
    const dialog = page.getByRole("alertdialog", { name: "Erase this code's reading?" });
    await expect(dialog).toContainText(`Everything recorded of ${login}'s reading`);
    await dialog.getByRole("button", { name: "Erase Reading" }).click();
    await expect(toast(page)).toContainText(`Reading of ${login} erased`);
    await expect(rowOf(login)).not.toContainText(chapter.title);
    await expect(rowOf(login)).toContainText("—");
  });
}
