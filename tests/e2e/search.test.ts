/**
 * The search box in the navigator's drawer: it loads nothing until it is used; it finds Operator
 * passages from the static index for anyone, and Mastermind passages from the server for a
 * Mastermind reader only; both forgive accents (issue 44: 5).
 */
import { request, type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { loginAs } from "./fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { awake, hydrated, operatorChapters } from "./reader-helpers.ts";
import { adminCredentials } from "./admin-fixtures.ts";

async function openDrawer(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Open the chapter list" }).click();
  await expect(page.getByRole("dialog", { name: "Chapters" })).toBeVisible();
}

const results = (page: Page) => page.getByTestId("search-results").getByRole("link");

test("the search box loads its index only when used and finds an Operator passage, linking to its subsection", async ({ page }) => {
  const searchFiles: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/search-index/") || url.pathname.startsWith("/api/search") || /SearchResults/.test(url.pathname)) searchFiles.push(url.pathname);
  });
  const [first] = await operatorChapters(page.request);
  await page.goto(`/${first!.slug}`);
  await hydrated(page);
  await openDrawer(page);
  expect(searchFiles).toEqual([]);

  const box = page.getByRole("searchbox", { name: "Search the book" });
  await box.fill("pedantic");
  const found = results(page);
  await expect(found).toHaveCount(1);
  await expect(found.first()).toHaveAttribute("href", "/signal-and-noise#the-inventory-of-reactions");
  await expect(found.first()).toContainText("The Inventory of Reactions");
  await expect(found.first()).toContainText("Signal and Noise · Operator");
  await expect(found.first().locator("mark")).toHaveText(["pedantic"]);
  expect(searchFiles).toContain("/search-index/entry.json");
  // An anonymous reader never asks the server.
  expect(searchFiles.filter((p) => p.startsWith("/api/search"))).toEqual([]);

  await box.fill("zzzqqq");
  await expect(page.getByText("Nothing found for “zzzqqq”.")).toBeVisible();
  await box.fill("pedantic");
  await found.first().click();
  await expect(page).toHaveURL(/\/signal-and-noise#the-inventory-of-reactions$/);
});

/**
 * Issue 45: 2 asks the open level's first search to move at most 100 KB with a book of 1,000
 * chapters x 10 subsections (`npm run bench:book`: 31 KB; with Pagefind it was 233 KB, and 102 KB
 * on the seed book, its script and WebAssembly 73 KB of that). What it moves grows with the chunk
 * its words fall in, not with the book: the seed book's first search stays under 40 KB.
 */
test("the first search moves at most 40 KB: its code, the index's entry, the one chunk its word falls in and the passages it shows (issue 45: 2)", async ({ page }) => {
  const [first] = await operatorChapters(page.request);
  await page.goto(`/${first!.slug}`);
  await awake(page);
  await openDrawer(page);
  // What the search asks for (its code, the index's files, the live list), as the bench counts it: bodies and headers.
  const moved: Array<Promise<{ path: string; bytes: number }>> = [];
  page.on("requestfinished", (finished) => {
    if (!["script", "fetch"].includes(finished.resourceType())) return;
    moved.push(finished.sizes().then((sizes) => ({ path: new URL(finished.url()).pathname, bytes: sizes.responseBodySize + sizes.responseHeadersSize })));
  });
  // (Typed at once: a reader typing slower than the box's 150 ms pause also searches what they have typed so far.)
  await page.getByRole("searchbox", { name: "Search the book" }).fill("attention");
  await expect(results(page).first()).toBeVisible();
  await expect.poll(async () => (await Promise.all(moved)).filter((file) => file.path.includes("/records/")).length).toBe(await results(page).count());
  const files = await Promise.all(moved);
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  console.log(`The first search (seed book): ${total} B in ${files.length} answers (${files.map((file) => `${file.path} ${file.bytes}`).join(", ")})`);
  expect(total).toBeLessThanOrEqual(40 * 1024);
  expect(files.filter((file) => file.path === "/search-index/entry.json")).toHaveLength(1);
  expect(files.filter((file) => file.path.includes("/terms/"))).toHaveLength(1);
  // A record for each passage shown, no more.
  expect(files.filter((file) => file.path.includes("/records/")).length).toBe(await results(page).count());
});

test("a Mastermind reader finds a Mastermind passage; an anonymous reader does not", async ({ page }) => {
  const word = "narrowing";
  await page.goto("/signal-and-noise");
  await hydrated(page);
  await openDrawer(page);
  await page.getByRole("searchbox", { name: "Search the book" }).fill(word);
  await expect(page.getByRole("region", { name: "Search results" }).getByRole("status")).toHaveText(/found/);
  await expect(results(page).filter({ hasText: "Mastermind" })).toHaveCount(0);

  await loginAs(page, "Mastermind");
  await page.goto("/signal-and-noise");
  await hydrated(page);
  await openDrawer(page);
  await page.getByRole("searchbox", { name: "Search the book" }).fill(word);
  const locked = page.getByTestId("search-results").locator('a[href="/under-load#the-narrowing"]');
  await expect(locked).toHaveCount(1);
  await expect(locked).toContainText("The Narrowing");
  await expect(locked).toContainText("Under Load · Mastermind");
  await expect(locked.locator("mark").first()).toHaveText(/^narrow/i);
  await locked.click();
  await expect(page).toHaveURL(/\/under-load#the-narrowing$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Under Load");
});

test("new words in an Operator chapter become searchable once the rebuild it starts is live", async ({ page }) => {
  test.setTimeout(120_000); // a site build runs in the middle
  const word = `quillwort${Date.now().toString(36)}`;
  const { adminCredentials } = await import("./admin-fixtures.ts");
  expect((await page.request.post("/api/admin/login", { data: adminCredentials() })).status()).toBe(200);
  const all = (await (await page.request.get("/api/admin/chapters")).json()) as Array<Record<string, unknown>>;
  const chapter = all.find((c) => c.slug === "signal-and-noise")!;
  const save = (content: unknown) =>
    page.request.put(`/api/admin/chapters/${chapter.id}`, {
      data: { slug: chapter.slug, title: chapter.title, content, readingTime: chapter.readingTime, order: chapter.order, level: chapter.level },
    });
  expect((await save(`${chapter.content}\n\nA ${word} grows here.`)).status()).toBe(200);
  try {
    await page.context().clearCookies();
    // The page shows the edit at once; the static index has it after the rebuild (seconds).
    await expect(async () => {
      await page.goto("/signal-and-noise");
      await expect(page.getByText(`A ${word} grows here.`)).toBeVisible();
      await hydrated(page);
      await openDrawer(page);
      await page.getByRole("searchbox", { name: "Search the book" }).fill(word);
      await expect(results(page).first()).toHaveAttribute("href", "/signal-and-noise", { timeout: 2_000 });
    }).toPass({ timeout: 60_000, intervals: [1_000] });
  } finally {
    expect((await page.request.post("/api/admin/login", { data: adminCredentials() })).status()).toBe(200);
    expect((await save(chapter.content)).status()).toBe(200);
  }
});

test("the drawer puts the passage that answers best first across both sources, and a word found nowhere finds nothing (issue 22: 9)", async ({ page }) => {
  await loginAs(page, "Mastermind");
  await page.goto("/signal-and-noise");
  await hydrated(page);
  await openDrawer(page);
  const box = page.getByRole("searchbox", { name: "Search the book" });
  // A locked subsection's exact title comes before open passages that share a common word.
  for (const [query, first] of [
    ["The Identity Statement", "/identity-by-design#the-identity-statement"],
    ["A Protocol for Hard Hours", "/under-load#a-protocol-for-hard-hours"],
    ["The Attention Ledger", "/where-attention-goes#the-attention-ledger"],
  ] as const) {
    await box.fill(query);
    await expect(results(page).first()).toHaveAttribute("href", first);
  }
  await box.fill("asdfghjkl");
  await expect(page.getByText("Nothing found for “asdfghjkl”.")).toBeVisible();
  await expect(results(page)).toHaveCount(0);
});

for (const [theme, mark] of [
  ["light", "rgb(241, 223, 184)"],
  ["dark", "rgb(91, 69, 24)"],
] as const) {
  test(`search results read like passages (${theme}): the title on its own line, never run into the excerpt; ellipses where it was cut; a mark from the palette (issue 34: 9)`, async ({ page }) => {
    await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/signal-and-noise");
    await hydrated(page);
    await openDrawer(page);
    await page.getByRole("searchbox", { name: "Search the book" }).fill("attention");
    const first = results(page).first();
    await expect(first).toBeVisible();
    const title = (await first.locator("span").first().textContent())!;
    const snippet = first.getByTestId("search-snippet");
    const text = (await snippet.textContent())!;
    // The title is a line of its own, above the excerpt.
    const [titleBox, snippetBox] = [(await first.locator("span").first().boundingBox())!, (await snippet.boundingBox())!];
    expect(titleBox.y + titleBox.height).toBeLessThanOrEqual(snippetBox.y);
    // No excerpt begins with the end of its title ('...of a Reaction By now you...').
    for (const link of await results(page).all()) {
      const own = (await link.locator("span").first().textContent())!;
      const excerpt = (await link.getByTestId("search-snippet").textContent())!.replace(/^…/, "");
      const words = own.split(" ");
      for (let i = 1; i < words.length; i++) expect(excerpt.startsWith(words.slice(i).join(" ")), `${own}: ${excerpt}`).toBe(false);
    }
    expect(text.startsWith("…") || text.endsWith("…"), `${title}: ${text}`).toBe(true);
    // The match, marked in the palette's colour, not the browser's yellow.
    expect(await snippet.locator("mark").first().evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(mark);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

/** The admin's own request context (apart from the page's reader), signed in. */
async function adminRequest(baseURL: string | undefined): Promise<APIRequestContext> {
  const admin = await request.newContext({ baseURL });
  expect((await admin.post("/api/admin/login", { data: adminCredentials() })).status()).toBe(200);
  return admin;
}

/** Adds `words` at the end of an Operator chapter's text; answers what puts the text back. */
async function appendToChapter(admin: APIRequestContext, slug: string, words: string): Promise<() => Promise<void>> {
  const all = (await (await admin.get("/api/admin/chapters")).json()) as Array<Record<string, unknown>>;
  const chapter = all.find((c) => c.slug === slug)!;
  const save = async (content: unknown) => {
    const answer = await admin.put(`/api/admin/chapters/${chapter.id}`, {
      data: { slug: chapter.slug, title: chapter.title, content, readingTime: chapter.readingTime, order: chapter.order, level: chapter.level },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  };
  await save(`${chapter.content as string}\n\n${words}`);
  return () => save(chapter.content);
}

/** Searches from the drawer's box and resolves once the answer for `query` is on screen. */
async function searchFor(page: Page, query: string): Promise<void> {
  const box = page.getByRole("searchbox", { name: "Search the book" });
  await box.fill(query);
  await expect(page.getByRole("region", { name: "Search results" }).getByRole("status").first()).toHaveText(/found/);
}

test("the open level's static index forgives accents: 'jeza' and 'zazolc' find 'jeża' and 'Zażółć', the word as typed first, shown as written (issue 44: 5)", async ({ page, baseURL }) => {
  test.setTimeout(150_000); // two site builds run in the middle
  const admin = await adminRequest(baseURL);
  const restore = [
    await appendToChapter(admin, "signal-and-noise", "Zażółć gęślą jaźń: widać ślady jeża w ogrodzie."),
    await appendToChapter(admin, "where-attention-goes", "Pisane bez ogonków: slady jeza w ogrodzie."),
  ];
  try {
    // Once the rebuilds the edits start are live, the index holds both passages.
    await expect(async () => {
      await page.goto("/signal-and-noise");
      await hydrated(page);
      await openDrawer(page);
      await searchFor(page, "jeza");
      await expect(results(page)).toHaveCount(2, { timeout: 2_000 });
    }).toPass({ timeout: 90_000, intervals: [1_000] });

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/signal-and-noise");
      await hydrated(page);
      await openDrawer(page);
      // The chapter's address, as a reader types it: the passage, its words as written, the match marked.
      await searchFor(page, "zazolc");
      await expect(results(page)).toHaveCount(1);
      await expect(results(page).first()).toHaveAttribute("href", "/signal-and-noise");
      await expect(results(page).first().locator("mark")).toHaveText(["Zażółć"]);
      await expect(results(page).first().getByTestId("search-snippet")).toContainText("Zażółć gęślą jaźń: widać ślady jeża w ogrodzie");
      // Without accents, the passage written so first; with them, the one that holds them.
      await searchFor(page, "jeza");
      await expect(results(page)).toHaveCount(2);
      await expect(results(page).first()).toHaveAttribute("href", "/where-attention-goes");
      await expect(results(page).nth(1).locator("mark")).toHaveText(["jeża"]);
      await searchFor(page, "jeża");
      await expect(results(page)).toHaveCount(2);
      await expect(results(page).first()).toHaveAttribute("href", "/signal-and-noise");
      await expect(results(page).first().locator("mark")).toHaveText(["jeża"]);
      expect(await seriousViolations(page), `${width} px`).toEqual([]);
    }
  } finally {
    for (const back of restore) await back();
    await admin.dispose();
  }
});

test("the locked levels' search forgives accents too: a Mastermind reader finds 'Zażółć gęślą jaźń' by 'zazolc', its address (issue 44: 5)", async ({ page, baseURL }) => {
  test.setTimeout(120_000); // a site build runs in the middle
  const admin = await adminRequest(baseURL);
  const created = await admin.post("/api/admin/chapters", {
    data: { slug: "zazolc-gesla-jazn", title: "Zażółć gęślą jaźń", content: "Zażółć gęślą jaźń: widać w ogrodzie ślady jeża, który przyszedł nocą.", readingTime: 1, order: 950, level: "Mastermind" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  try {
    await page.addInitScript(() => localStorage.setItem("book-theme", "dark"));
    await loginAs(page, "Mastermind");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/signal-and-noise");
      await hydrated(page);
      await openDrawer(page);
      for (const [query, mark] of [["zazolc", "Zażółć"], ["jeza", "jeża"], ["zażółć", "Zażółć"]] as const) {
        await searchFor(page, query);
        const found = results(page).filter({ hasText: "Mastermind" });
        await expect(found, query).toHaveCount(1);
        await expect(found.first()).toHaveAttribute("href", "/zazolc-gesla-jazn");
        // (The chapter's own text: its title, then its level alone.)
        await expect(found.first().locator("span").first()).toHaveText("Zażółć gęślą jaźń");
        await expect(found.first()).toContainText("Mastermind");
        await expect(found.first().locator("mark").first()).toHaveText(mark);
      }
      expect(await seriousViolations(page), `${width} px`).toEqual([]);
    }
  } finally {
    expect((await admin.delete(`/api/admin/chapters/${id}`)).status()).toBe(200);
    await admin.dispose();
  }
});
