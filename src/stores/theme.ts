/**
 * The colour theme (SPEC.md sections 1 and 3), stored in browser storage as `book-theme`
 * ("light" or "dark").
 *
 * Default when nothing is stored: every page is dark, as the spec says for content pages, the
 * admin panel included (issue 44: 8: the panel keeps the site's theme). The layout's inline head
 * script (src/layouts/early-script.ts)
 * applies the same rule before first paint, so there is never a flash of the wrong theme; the page script
 * (src/scripts/page.ts) switches it when the reader asks. No store: nothing else reads it.
 */
import { THEME_KEY } from "../lib/storage-keys.ts";

export type Theme = "light" | "dark";

/** The theme on screen now. */
export function currentTheme(): Theme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

/** Applies a theme to the page and remembers it for every later visit. */
export function setTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}
