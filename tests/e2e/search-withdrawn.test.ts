/**
 * Withdrawn text and the open level's static index (issue 21: 2). The index is as old as the last
 * site build (seconds here, a deploy on Netlify, never if that build fails), and a page keeps what
 * it has loaded of it: a page opened before a chapter was withdrawn still holds the chapter's
 * words. Each search checks its hits against the live chapter list, fetched for that search, so
 * such a page shows no hit of a chapter moved to a locked level, deleted or edited, before any
 * rebuild is live: each test asserts that the page's own index still finds the old words. That
 * list is the CDN's answer, so an anonymous reader's search still reaches no function.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { adminCredentials } from "./admin-fixtures.ts";
import { expect, test } from "./page-test.ts";
import { hydrated } from "./reader-helpers.ts";

/** A seed chapter, and the one passage of the book that holds WORD (tests/e2e/search.test.ts). */
const CHAPTER = "signal-and-noise";
const PART = "the-inventory-of-reactions";
const WORD = "pedantic";
const HIT = `/${CHAPTER}#${PART}`;

type Json = Record<string, unknown>;

const results = (page: Page) => page.getByTestId("search-results").getByRole("link");

/** Searches from the drawer's box, and resolves once the answer for `word` is on screen. */
async function search(page: Page, word: string): Promise<void> {
  const box = page.getByRole("searchbox", { name: "Search the book" });
  if (!(await box.isVisible())) {
    await page.getByRole("button", { name: "Open the chapter list" }).click();
    await expect(page.getByRole("dialog", { name: "Chapters" })).toBeVisible();
  }
  await box.fill("");
  await box.fill(word);
  await expect(page.getByRole("region", { name: "Search results" }).getByRole("status").first()).toHaveText(/found/);
}

/**
 * What the page's own static index (what it has loaded of it) finds for `word`, as addresses: its
 * search, with the live chapter list answered as it was before the change (`listBefore`), so that
 * only the index decides.
 */
async function staticIndexFinds(page: Page, word: string, listBefore: Json[]): Promise<string[]> {
  await page.route("**/api/chapters", (route) => route.fulfill({ json: listBefore }));
  try {
    await search(page, word);
    return await results(page).evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  } finally {
    await page.unroute("**/api/chapters");
  }
}

/** Opens the chapter as an anonymous reader whose static index finds WORD in it (after any rebuild still under way). */
async function openPageThatFinds(page: Page): Promise<void> {
  await expect(async () => {
    await page.goto(`/${CHAPTER}`);
    await hydrated(page);
    await search(page, WORD);
    await expect(results(page)).toHaveCount(1, { timeout: 2_000 });
    await expect(results(page).first()).toHaveAttribute("href", HIT);
  }).toPass({ timeout: 90_000, intervals: [1_000] });
}

/** The live chapter list as it is now (the same for everyone: the CDN's answer). */
async function liveList(request: APIRequestContext): Promise<Json[]> {
  return (await (await request.get("/api/chapters")).json()) as Json[];
}

async function admin(request: APIRequestContext) {
  expect((await request.post("/api/admin/login", { data: adminCredentials() })).status()).toBe(200);
  const chapters = (await (await request.get("/api/admin/chapters")).json()) as Json[];
  const chapter = chapters.find((c) => c.slug === CHAPTER)!;
  const fields = { slug: chapter.slug, title: chapter.title, content: chapter.content, readingTime: chapter.readingTime, order: chapter.order, level: chapter.level };
  const checked = async (response: Promise<{ status(): number; text(): Promise<string> }>) => {
    const answer = await response;
    expect(answer.status(), await answer.text()).toBe(200);
  };
  return {
    chapter,
    saveChapter: (changes: Json) => checked(request.put(`/api/admin/chapters/${chapter.id}`, { data: { ...fields, ...changes } })),
    deleteChapter: () => checked(request.delete(`/api/admin/chapters/${chapter.id}`)),
    restoreChapter: () => checked(request.put(`/api/admin/chapters/${chapter.id}/restore`)),
    /** Saves the passage's text through `edit`; answers the text it had. */
    editPart: async (edit: (content: string) => string) => {
      const parts = (await (await request.get(`/api/admin/chapters/${chapter.id}/subsections`)).json()) as Json[];
      const part = parts.find((p) => p.slug === PART)!;
      const { chapterId, slug, title, content, photo, photoAlt, order } = part;
      await checked(request.put(`/api/admin/subsections/${part.id}`, { data: { chapterId, slug, title, content: edit(content as string), photo, photoAlt, order } }));
      return content as string;
    },
    /** Waits until no build is pending or running, so the next test starts from the site as it was. */
    settled: () =>
      expect(async () => {
        const view = (await (await request.get("/api/admin/publish")).json()) as { state: string; pending: boolean };
        expect(view).toMatchObject({ state: "live", pending: false });
      }).toPass({ timeout: 90_000, intervals: [1_000] }),
  };
}

test.describe("a page open since before a chapter was withdrawn", () => {
  test.setTimeout(180_000); // rebuilds run after each withdrawal and each restore

  test("shows no hit of a chapter moved to a locked level", async ({ page, request }) => {
    const book = await admin(request);
    await openPageThatFinds(page);
    const listBefore = await liveList(request);
    await book.saveChapter({ level: "Mastermind" });
    try {
      await search(page, WORD);
      await expect(page.getByText(`Nothing found for “${WORD}”.`)).toBeVisible();
      await expect(results(page)).toHaveCount(0);
      // No rebuild has reached this page: its own index still holds the words.
      expect(await staticIndexFinds(page, WORD, listBefore)).toContain(HIT);
    } finally {
      await book.saveChapter({ level: book.chapter.level });
      await book.settled();
    }
    await openPageThatFinds(page);
  });

  test("shows no hit of a deleted chapter", async ({ page, request }) => {
    const book = await admin(request);
    await openPageThatFinds(page);
    const listBefore = await liveList(request);
    await book.deleteChapter();
    try {
      await search(page, WORD);
      await expect(page.getByText(`Nothing found for “${WORD}”.`)).toBeVisible();
      expect(await staticIndexFinds(page, WORD, listBefore)).toContain(HIT);
    } finally {
      await book.restoreChapter();
      await book.settled();
    }
    await openPageThatFinds(page);
  });

  test("shows no hit for words an edit took out", async ({ page, request }) => {
    const book = await admin(request);
    await openPageThatFinds(page);
    const listBefore = await liveList(request);
    const before = await book.editPart((content) => content.replace(new RegExp(WORD, "gi"), "exacting"));
    try {
      await search(page, WORD);
      await expect(page.getByText(`Nothing found for “${WORD}”.`)).toBeVisible();
      expect(await staticIndexFinds(page, WORD, listBefore)).toContain(HIT);
    } finally {
      await book.editPart(() => before);
      await book.settled();
    }
    await openPageThatFinds(page);
  });
});

test("each search asks for the live chapter list, which the CDN answers: an anonymous reader's search still reaches no function", async ({ page, request }) => {
  await openPageThatFinds(page);
  expect((await request.get("/api/chapters")).status()).toBe(200); // in the CDN's cache, as earlier readers leave it
  const lists: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/chapters") lists.push(response.headers()["cache-status"] ?? "");
  });
  for (const word of ["attention", WORD, "noise"]) await search(page, word);
  expect(lists).toHaveLength(3);
  // "Reached the server" is what a function answered (tests/e2e/origin-requests.test.ts): `fwd=`.
  for (const status of lists) expect(status).toMatch(/hit/);
  for (const status of lists) expect(status).not.toMatch(/fwd=/);
});

/**
 * A text edit's build keeps the whole index and puts the chapter into the index's delta (decision
 * 0030): once it is live, a new page finds the edit's words, and only them, from the delta, while
 * the whole index is the one it was. (The publisher writes the whole index again once edits have
 * been quiet for 15 s: src/server/publish/local-publisher.test.ts; this test is done well before.)
 */
test("words an edit brings in are found once it is live, from the index's delta, and the whole index is not written again", async ({ page, request }) => {
  const NEW_WORD = "quixotically";
  const book = await admin(request);
  await book.settled();
  const entry = async () => (await (await request.get("/search-index/entry.json")).json()) as { whole: { id: string }; delta: { id: string; chapters: number } | null };
  const { whole, delta } = await entry();
  expect(delta).toBeNull();
  const before = await book.editPart((content) => content.replace(new RegExp(WORD, "gi"), NEW_WORD));
  try {
    await book.settled();
    const edited = await entry();
    expect(edited.whole).toEqual(whole);
    expect(edited.delta).toMatchObject({ chapters: 1 });
    // The whole index still holds the passage's earlier text (until the publisher writes it again once edits are quiet): the panel counts it.
    expect(((await (await request.get("/api/admin/publish")).json()) as { searchIndex: { withdrawn: number } }).searchIndex.withdrawn).toBe(1);
    const fetched: string[] = [];
    page.on("response", (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith("/search-index/")) fetched.push(`${response.status()} ${pathname}`);
    });
    await page.goto(`/${CHAPTER}`);
    await hydrated(page);
    await search(page, NEW_WORD);
    await expect(results(page)).toHaveCount(1);
    await expect(results(page).first()).toHaveAttribute("href", HIT);
    // The whole index's record of the passage holds the old words, under the chapter's old stamp: dropped.
    await search(page, WORD);
    await expect(page.getByText(`Nothing found for “${WORD}”.`)).toBeVisible();
    // Both parts asked, each for the chunks its words fall in; the new words' record is the delta's.
    expect(fetched).toEqual(expect.arrayContaining(["200 /search-index/entry.json", expect.stringMatching(new RegExp(`^200 /search-index/${edited.delta!.id}/records/\\d+\\.json$`))]));
    expect(fetched.filter((line) => line.includes(`/${whole.id}/terms/`)).length).toBeGreaterThan(0);
  } finally {
    await book.editPart(() => before);
    await book.settled();
  }
  expect((await entry()).delta).toBeNull();
  await openPageThatFinds(page);
});
