/**
 * Editing as the operator sees it (issue 22: 3, 4): a publish time takes effect with whichever
 * button saves (and a past time is refused beside the field, with nothing sent); the Edit and Add
 * dialogs' Preview shows the text as readers will see it (headings, call-to-action buttons, the
 * photo) in the site's styles and the theme in force, on a phone and a desktop, and gives the
 * text area back with everything typed.
 */
import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { adminLogin, chapterCard, createChapter, createSubsection, openChapters, toast } from "./admin-fixtures.ts";

interface AdminChapterState {
  id: number;
  content: string;
  publishAt: string | null;
  draft: { content?: string } | null;
}

async function chapterState(page: Page, id: number): Promise<AdminChapterState> {
  const all = (await (await page.request.get("/api/admin/chapters")).json()) as AdminChapterState[];
  return all.find((chapter) => chapter.id === id)!;
}

for (const size of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const) test(`a publish time takes effect with Save Changes, and a past time is refused beside the field (${size.name})`, async ({ page }) => {
  await page.setViewportSize({ width: size.width, height: size.height });
  await adminLogin(page);
  const chapter = await createChapter(page, { content: "The published words." });
  await openChapters(page);
  const card = chapterCard(page, chapter.title);
  await card.getByRole("button", { name: `Edit ${chapter.title}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Chapter" });
  await edit.getByLabel("Content").fill("Words for next spring.");

  // A time gone by: said beside the field, nothing sent, the dialog keeps what was typed.
  let saves = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT" && new URL(request.url()).pathname === `/api/admin/chapters/${chapter.id}`) saves++;
  });
  const when = edit.getByLabel("Publish at (optional)");
  await when.fill("2020-01-01T09:00");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(edit.getByText("Choose a time in the future, or leave it empty to publish now.")).toBeVisible();
  await expect(when).toBeFocused();
  await expect(when).toHaveAttribute("aria-invalid", "true");
  expect(saves).toBe(0);

  // A time to come: Save Changes schedules the edit; readers keep the published words until then.
  await when.fill("2031-04-01T08:15");
  await expect(edit.getByText("Choose a time in the future")).toBeHidden();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Draft saved: it will be published at");
  await expect(toast(page)).toContainText("2031");
  await expect(edit).toBeHidden();
  const scheduled = await chapterState(page, chapter.id);
  expect(scheduled.content).toBe("The published words.");
  expect(scheduled.draft?.content).toBe("Words for next spring.");
  expect(new Date(scheduled.publishAt!).getFullYear()).toBe(2031);

  // The dialog shows the schedule; cleared, Save Changes publishes now.
  await card.getByRole("button", { name: `Edit ${chapter.title}` }).click();
  await expect(when).toHaveValue("2031-04-01T08:15");
  await when.fill("");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Chapter updated successfully");
  const live = await chapterState(page, chapter.id);
  expect(live.content).toBe("Words for next spring.");
  expect(live.publishAt).toBeNull();
});

for (const size of [
  { name: "phone", width: 390, height: 844, title: 36 },
  { name: "desktop", width: 1280, height: 800, title: 40 },
] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`Preview shows a chapter and a subsection as readers will see them (${size.name}, ${theme} theme)`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
      await adminLogin(page);
      const chapter = await createChapter(page);
      await createSubsection(page, chapter.id, "First Part", 0);
      await createSubsection(page, chapter.id, "Second Part", 1);
      await openChapters(page);
      const card = chapterCard(page, chapter.title);

      await card.getByRole("button", { name: `Edit ${chapter.title}` }).click();
      const edit = page.getByRole("dialog", { name: "Edit Chapter" });
      await expect(edit.getByText(`The chapter's address: /${chapter.slug}`, { exact: true })).toBeVisible();
      const typed = "Opening words.\n\n## A Heading Inside\n\n> A quoted line.\n\n[Take the scan](cta:assessment)";
      await edit.getByLabel("Content").fill(typed);
      const toggle = edit.getByRole("button", { name: "Preview" });
      await expect(toggle).toHaveAttribute("aria-pressed", "false");
      await toggle.click();
      // The toggle says which state it is in: its words, its pressed state and its look (issue 34: 11).
      const back = edit.getByRole("button", { name: "Back to editing" });
      await expect(back).toHaveAttribute("aria-pressed", "true");
      await expect(toggle).toHaveCount(0);
      const look = (button: typeof back) => button.evaluate((b) => `${getComputedStyle(b).borderColor} ${getComputedStyle(b).color}`);
      const pressedLook = await look(back);
      const preview = edit.getByRole("region", { name: "Preview" });
      await expect(preview.getByRole("heading", { level: 1, name: chapter.title })).toBeVisible();
      await expect(preview.getByRole("heading", { level: 2, name: "A Heading Inside" })).toBeVisible();
      await expect(preview.locator("blockquote")).toHaveText("A quoted line.");
      const cta = preview.getByRole("link", { name: "Take the scan" });
      await expect(cta).toHaveAttribute("href", "/assessment");
      await expect(cta).toHaveClass(/cta-button/);
      await expect(edit.getByLabel("Content")).toBeHidden();
      // The site's styles: the title's size, the text's, and the reader's colours in this theme.
      const styles = await preview.evaluate((box) => {
        const h1 = box.querySelector("h1")!;
        const text = box.querySelector(".chapter-content p")!;
        const root = getComputedStyle(document.documentElement);
        return {
          title: parseFloat(getComputedStyle(h1).fontSize),
          text: parseFloat(getComputedStyle(text).fontSize),
          ink: getComputedStyle(text).color,
          expectedInk: root.getPropertyValue("--color-ink").trim(),
          dark: document.documentElement.classList.contains("dark"),
        };
      });
      expect(styles.title).toBe(size.title);
      expect(styles.text).toBe(18);
      expect(styles.dark).toBe(theme === "dark");
      // A click on the call to action stays in the dialog.
      await cta.click();
      await expect(edit).toBeVisible();
      expect(new URL(page.url()).pathname).toBe("/admin");
      expect(await seriousViolations(page)).toEqual([]);
      // Back to the text, everything typed still there.
      await back.click();
      await expect(toggle).toHaveAttribute("aria-pressed", "false");
      expect(await look(toggle)).not.toBe(pressedLook);
      await expect(edit.getByLabel("Content")).toHaveValue(typed);
      await expect(preview).toBeHidden();
      await page.keyboard.press("Escape");
      await expect(edit).toBeHidden();

      // A subsection: its number in the chapter, its title at the subsection size, its photo.
      await card.getByRole("button", { name: `Add subsection to ${chapter.title}` }).click();
      const add = page.getByRole("dialog", { name: "Add Subsection" });
      await add.getByLabel("Title").fill("Third Part");
      await add.getByLabel("Content").fill("Words of the third part.");
      await add.getByLabel("Or photo URL").fill("/images/quiet-room.jpg");
      await add.getByLabel("Photo description (alt text)").fill("A quiet room");
      await add.getByRole("button", { name: "Preview" }).click();
      const partPreview = add.getByRole("region", { name: "Preview" });
      const heading = partPreview.getByRole("heading", { level: 2, name: "03. Third Part" });
      await expect(heading).toBeVisible();
      expect(await heading.evaluate((h) => ({ size: parseFloat(getComputedStyle(h).fontSize), weight: getComputedStyle(h).fontWeight }))).toEqual({ size: 28, weight: "600" });
      await expect(partPreview.getByRole("img", { name: "A quiet room" })).toBeVisible();
      await expect(partPreview.getByText("Words of the third part.")).toBeVisible();
    });
  }
}
