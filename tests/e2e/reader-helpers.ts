/** Small helpers shared by the reader's end-to-end tests. */
import type { APIRequestContext, Page } from "@playwright/test";

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

/** Resolves once every island on the page has hydrated. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll("astro-island[ssr]").length === 0, undefined, { timeout: 10_000 });
}
