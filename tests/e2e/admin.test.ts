/**
 * The admin panel, signing in and managing chapters and subsections (SPEC.md sections 2, 4, 5
 * and 8; issue 6), against the real server.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminCredentials, adminLogin, chapterCard, createChapter, createSubsection, showLevel, unique } from "./admin-fixtures.ts";
import { hydrated } from "./reader-helpers.ts";
import { hold } from "./hold.ts";

/** The notification region (one toast at a time). */
const toast = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });

async function expectToast(page: Page, title: string, description: string) {
  await expect(toast(page)).toContainText(title);
  await expect(toast(page)).toContainText(description);
}

test.describe("signing in", () => {
  test("a wrong password shows a toast; the right one opens the panel; logout returns to the form", async ({ page }) => {
    const { email, password } = adminCredentials();
    await page.goto("/admin");
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Admin Sign In" })).toBeVisible();
    const submit = page.getByRole("button", { name: "Sign In" });
    await expect(submit).toBeDisabled();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not-the-password");
    await submit.click();
    await expect(toast(page)).toContainText("Access Denied");
    await expect(page.getByRole("heading", { name: "Admin Panel" })).toHaveCount(0);

    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    // The 'Access Denied' toast is answered: it does not stay over the panel.
    await expect(toast(page)).not.toContainText("Access Denied");
    await expect(page.getByRole("tab", { name: /^Chapters \(\d+\)$/ })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tab", { name: /^Assessment Submissions \(\d+\)$/ })).toBeVisible();

    await page.reload();
    await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
    await page.getByRole("button", { name: "Log Out" }).click();
    await expect(page.getByRole("heading", { name: "Admin Sign In" })).toBeVisible();
    const session = await (await page.request.get("/api/admin/session")).json();
    expect(session.authenticated).toBe(false);
  });

  test("'Loading admin panel...' shows while the panel loads", async ({ page }) => {
    await page.request.post("/api/admin/login", { data: adminCredentials() });
    const release = await hold(page, "**/api/admin/chapters");
    await page.goto("/admin");
    await expect(page.getByText("Loading admin panel...")).toBeVisible();
    release();
    await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
  });
});

test.describe("chapters", () => {
  test.beforeEach(async ({ page }) => {
    await adminLogin(page);
  });

  test("tabs and level sub-tabs carry counts and move with the arrow keys", async ({ page }) => {
    const all = (await (await page.request.get("/api/admin/chapters")).json()) as { level: string | null }[];
    await expect(page.getByRole("tab", { name: `Chapters (${all.length})` })).toBeVisible();
    for (const level of ["Operator", "Architect", "Mastermind"]) {
      const count = all.filter((c) => (c.level ?? "Operator") === level).length;
      await expect(page.getByRole("tab", { name: `${level} (${count})` })).toBeVisible();
    }
    const operator = page.getByRole("tab", { name: /^Operator \(/ });
    await operator.focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: /^Architect \(/ })).toBeFocused();
    await expect(page.getByRole("tab", { name: /^Architect \(/ })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toHaveCount(2);
  });

  test("create, expand, edit and delete a chapter with its dialogs, validation and toasts", async ({ page }) => {
    const title = unique("Created Through The Panel");
    await page.getByRole("button", { name: "Create New Chapter" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Chapter" });
    await expect(dialog).toBeVisible();
    // Defaults: reading time 5, order 0, level Operator.
    await expect(dialog.getByLabel("Reading time (minutes)")).toHaveValue("5");
    await expect(dialog.getByLabel("Order")).toHaveValue("0");
    await expect(dialog.getByLabel("Level")).toHaveValue("Operator");
    // Validation: an empty form names its fields.
    await dialog.getByRole("button", { name: "Create Chapter" }).click();
    await expect(dialog.getByText("Slug is required")).toBeVisible();
    await expect(dialog.getByText("Title is required")).toBeVisible();
    await expect(dialog.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
    // The slug follows the title until edited by hand; each error goes as soon as its field is valid.
    await dialog.getByLabel("Title").fill(title);
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    await expect(dialog.getByLabel("Slug")).toHaveValue(slug);
    await expect(dialog.getByText("Title is required")).toHaveCount(0);
    await expect(dialog.getByText("Slug is required")).toHaveCount(0);
    await expect(dialog.getByLabel("Slug")).not.toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByText("Content is required")).toBeVisible(); // still empty
    await dialog.getByLabel("Slug").fill(`${slug}-x`);
    await dialog.getByLabel("Title").fill(`${title}!`);
    await expect(dialog.getByLabel("Slug")).toHaveValue(`${slug}-x`);
    await dialog.getByLabel("Title").fill(title);
    await dialog.getByLabel("Level").selectOption("Mastermind");
    await dialog.getByLabel("Reading time (minutes)").fill("");
    await dialog.getByLabel("Order").fill("950");
    const content = `Opening line of the new chapter. ${"More words follow here. ".repeat(10)}`;
    await dialog.getByLabel("Content").fill(content);
    await dialog.getByRole("button", { name: "Create Chapter" }).click();
    await expectToast(page, "Success", "Chapter created successfully");
    await expect(dialog).toBeHidden();

    await showLevel(page, "Mastermind");
    const card = chapterCard(page, title);
    await expect(card).toContainText("Mastermind");
    await expect(card).toContainText("Order: 950");
    // The number readers see on the rail (00 first) among the level's chapters readers see
    // (published, not deleted: by the admin's list, not by the cards' words), in reading order,
    // beside the stored order (issue 34: 10).
    const listed = (await (await page.request.get("/api/admin/chapters")).json()) as Array<{ id: number; slug: string; level: string | null; order: number; status?: string; deletedAt?: string | null }>;
    const reading = listed.filter((c) => c.level === "Mastermind" && c.status !== "draft" && !c.deletedAt).sort((a, b) => a.order - b.order || a.id - b.id);
    const number = String(reading.findIndex((c) => c.slug === `${slug}-x`)).padStart(2, "0");
    expect(number).not.toBe("-1");
    await expect(card).toContainText(`Chapter ${number} · Order: 950`);
    await expect(card).toContainText(`${slug}-x`);
    await card.getByRole("button", { name: `Expand ${title}` }).click();
    // A non-numeric reading time became 0.
    await expect(card).toContainText("Reading time: 0 minutes");
    await expect(card.getByTestId("content-preview")).toHaveText(`${content.slice(0, 100)}...`);
    await expect(card).toContainText("No subsections yet.");
    await card.getByRole("button", { name: `Collapse ${title}` }).click();
    await expect(card.getByTestId("content-preview")).toHaveCount(0);

    await card.getByRole("button", { name: `Edit ${title}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit Chapter" });
    await expect(edit.getByLabel("Title")).toHaveValue(title);
    await edit.getByLabel("Title").fill(`${title} Revised`);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Success", "Chapter updated successfully");
    const revised = chapterCard(page, `${title} Revised`);
    await expect(revised).toBeVisible();

    // Delete asks first; Cancel keeps the chapter.
    await revised.getByRole("button", { name: `Delete ${title} Revised` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete chapter?" });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(revised).toBeVisible();
    await revised.getByRole("button", { name: `Delete ${title} Revised` }).click();
    await page.getByRole("alertdialog", { name: "Delete chapter?" }).getByRole("button", { name: "Delete Chapter" }).click();
    await expectToast(page, "Success", "Chapter deleted successfully");
    await expect(revised).toHaveCount(0);
    const deleted = page.getByRole("region", { name: "Recently Deleted Items" });
    await expect(deleted).toContainText(`${title} Revised`);
  });

  test("a taken slug shows the server's message in the error toast", async ({ page }) => {
    const existing = await createChapter(page);
    await page.getByRole("button", { name: "Create New Chapter" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Chapter" });
    await dialog.getByLabel("Title").fill(existing.title);
    await dialog.getByLabel("Content").fill("Anything.");
    await dialog.getByRole("button", { name: "Create Chapter" }).click();
    // SPEC.md section 8's toast, with the server's own words (issue 22: 2; tests/e2e/admin-messages.test.ts).
    await expect(toast(page)).toContainText(`Failed to create chapter: 409: The chapter "${existing.title}" already has the slug "${existing.slug}"; choose another slug`);
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });

  test("subsections: add (order defaults to the count), edit, the duplicate slug toast, delete with confirmation, restore", async ({ page }) => {
    const chapter = await createChapter(page);
    await createSubsection(page, chapter.id, "First Part", 0);
    await page.reload();
    await hydrated(page);
    await showLevel(page, "Mastermind");
    const card = chapterCard(page, chapter.title);
    await card.getByRole("button", { name: `Add subsection to ${chapter.title}` }).click();
    const add = page.getByRole("dialog", { name: "Add Subsection" });
    await expect(add.getByLabel("Order")).toHaveValue("1");
    await add.getByRole("button", { name: "Add Subsection" }).click();
    await expect(add.getByText("Title is required")).toBeVisible();
    await add.getByLabel("Title").fill("Second Part");
    await add.getByLabel("Content").fill("The second part's words.");
    await add.getByRole("button", { name: "Add Subsection" }).click();
    await expectToast(page, "Success", "Subsection created successfully");

    // The same slug again in this chapter.
    await card.getByRole("button", { name: `Add subsection to ${chapter.title}` }).click();
    await add.getByLabel("Title").fill("Second Part");
    await add.getByLabel("Content").fill("Again.");
    await add.getByRole("button", { name: "Add Subsection" }).click();
    await expectToast(page, "Error", "A subsection with this slug already exists in this chapter. Please use a different slug.");
    await add.getByRole("button", { name: "Cancel" }).click();

    await card.getByRole("button", { name: `Expand ${chapter.title}` }).click();
    const rows = card.getByRole("list", { name: "Subsections" }).getByRole("listitem");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText("Second Part");

    await rows.nth(1).getByRole("button", { name: "Edit subsection Second Part" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Subsection" });
    await expect(edit.getByLabel("Title")).toHaveValue("Second Part");
    await edit.getByLabel("Title").fill("Second Part, Edited");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Success", "Subsection updated successfully");
    await expect(rows.nth(1)).toContainText("Second Part, Edited");

    await rows.nth(0).getByRole("button", { name: "Delete subsection First Part" }).click();
    await page.getByRole("alertdialog", { name: "Delete subsection?" }).getByRole("button", { name: "Delete Subsection" }).click();
    await expectToast(page, "Success", "Subsection deleted successfully");
    await expect(rows).toHaveCount(1);

    const deleted = page.getByRole("region", { name: "Recently Deleted Items" });
    await expect(deleted).toContainText(`Subsection of ${chapter.title}`);
    await deleted.getByRole("button", { name: "Restore subsection First Part" }).click();
    await expectToast(page, "Success", "Subsection restored successfully");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("First Part");
  });

  test("a subsection delete the server refuses is rolled back", async ({ page }) => {
    const chapter = await createChapter(page);
    await createSubsection(page, chapter.id, "Stays Put", 0);
    await page.reload();
    await hydrated(page);
    await showLevel(page, "Mastermind");
    const card = chapterCard(page, chapter.title);
    await card.getByRole("button", { name: `Expand ${chapter.title}` }).click();
    const rows = card.getByRole("list", { name: "Subsections" }).getByRole("listitem");
    await expect(rows).toHaveCount(1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/admin/subsections/*", async (route) => {
      if (route.request().method() !== "DELETE") return route.continue();
      await held;
      await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "boom", message: "Nope" } }) });
    });
    const logged: string[] = [];
    page.on("console", (message) => logged.push(message.text()));
    await rows.first().getByRole("button", { name: "Delete subsection Stays Put" }).click();
    await page.getByRole("alertdialog", { name: "Delete subsection?" }).getByRole("button", { name: "Delete Subsection" }).click();
    await expect(rows).toHaveCount(0);
    release();
    await expectToast(page, "Error", "Failed to delete subsection");
    await expect(rows).toHaveCount(1);
    expect(logged.some((text) => text.startsWith("Query mutation error:"))).toBe(true);
  });

  test("deleting a chapter moves its subsections with it; restoring brings both back", async ({ page }) => {
    const chapter = await createChapter(page);
    await createSubsection(page, chapter.id, "Goes Along", 0);
    await page.reload();
    await hydrated(page);
    await showLevel(page, "Mastermind");
    const card = chapterCard(page, chapter.title);
    await card.getByRole("button", { name: `Delete ${chapter.title}` }).click();
    await page.getByRole("alertdialog", { name: "Delete chapter?" }).getByRole("button", { name: "Delete Chapter" }).click();
    await expectToast(page, "Success", "Chapter deleted successfully");
    const deleted = page.getByRole("region", { name: "Recently Deleted Items" });
    await deleted.getByRole("button", { name: `Restore chapter ${chapter.title}` }).click();
    await expectToast(page, "Success", "Chapter restored successfully");
    await expect(card).toBeVisible();
    await card.getByRole("button", { name: `Expand ${chapter.title}` }).click();
    await expect(card.getByRole("list", { name: "Subsections" })).toContainText("Goes Along");
  });

  test("an empty level says so and offers Add Chapter", async ({ page }) => {
    // Every level has seed chapters, so show an empty one through a mocked list.
    await page.route("**/api/admin/chapters", (route) =>
      route.request().method() === "GET" ? route.fulfill({ json: [] }) : route.continue(),
    );
    await page.reload();
    await hydrated(page);
    await expect(page.getByText("No chapters in Operator")).toBeVisible();
    await showLevel(page, "Architect");
    await expect(page.getByText("No chapters in Architect")).toBeVisible();
    await page.getByRole("button", { name: "Add Chapter" }).click();
    await expect(page.getByRole("dialog", { name: "Create New Chapter" }).getByLabel("Level")).toHaveValue("Architect");
  });
});
