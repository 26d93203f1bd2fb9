/** Small helpers shared by the reader's end-to-end tests. */
import { expect, type APIRequestContext, type Page } from "@playwright/test";

export interface ListedChapter {
  id: number;
  slug: string;
  title: string;
  level: string | null;
  order: number;
}

/** The Operator chapters in reading order, as the API lists them. */
export async function operatorChapters(request: APIRequestContext): Promise<ListedChapter[]> {
  const all = (await (await request.get("/api/chapters")).json()) as ListedChapter[];
  return all.filter((c) => (c.level ?? "Operator") === "Operator").sort((a, b) => a.order - b.order);
}

/**
 * Resolves once every island that hydrates by itself (client:load) has hydrated, and the page
 * script has done what waits for the first paint (the full sheet added, and on a first visit the
 * book's face loaded for the next page: issue 33: 2, issue 44: 1). The islands that wait for the reader (client:interaction:
 * the navigator, the toasts) stay asleep: see `awake`.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelectorAll('astro-island[ssr]:not([client="interaction"])').length === 0 &&
      document.documentElement.dataset.face !== "later" &&
      !(document.getElementById("full-sheet") as HTMLTemplateElement | null)?.content.childElementCount &&
      // (Laid out first: the face is fetched once text is set in it.)
      document.body.offsetWidth >= 0,
    undefined,
    { timeout: 10_000 },
  );
  // (Apart: waitForFunction takes a promise for true at once, so an async check never waited.)
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Whether the island whose component file starts with `name` (Navigator, Toasts) is still asleep. */
export function asleep(page: Page, name: string): Promise<boolean> {
  return page.evaluate((prefix) => document.querySelector(`astro-island[ssr][component-url^="/_astro/${prefix}."]`) !== null, name);
}

/**
 * Wakes every client:interaction island as the reader's first touch would (a focusin inside it,
 * without moving focus or the mouse), and resolves once all have hydrated.
 */
export async function awake(page: Page): Promise<void> {
  await hydrated(page);
  await page.evaluate(() => {
    for (const island of document.querySelectorAll('astro-island[ssr][client="interaction"]')) {
      // (An island that renders nothing until needed, the Notebook, takes it on itself.)
      (island.firstElementChild ?? island).dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    }
  });
  await page.waitForFunction(() => document.querySelectorAll("astro-island[ssr]").length === 0, undefined, { timeout: 10_000 });
}

/** Signs in with `code` through /resume's form (the page open on /resume), and waits for 'System Access Granted'. */
export async function enterCode(page: Page, code: { login: string; password: string }): Promise<void> {
  await page.getByLabel("Access Code").fill(code.login);
  await page.getByLabel("Password").fill(code.password);
  await page.getByRole("button", { name: "Enter" }).click();
  await expect(page.getByRole("heading", { name: "System Access Granted" })).toBeVisible();
}
