/**
 * Holding a request back, for what a page does before a file or an answer has come: the page
 * script (decision 0032 brings it after the first paint), an island's files, a list, a session.
 */
import type { BrowserContext, Page } from "@playwright/test";

/** The page script's address (Astro names it after the layout that carries it). */
export const PAGE_SCRIPT = /\/_astro\/Base\.astro_astro_type_script_index_0_lang\.[\w-]+\.js$/;

/** Holds the requests `target` makes to `url` until the returned function is called; then they go on. */
export async function hold(target: Page | BrowserContext, url: string | RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await target.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
