/**
 * The colour theme (SPEC.md sections 1 and 3), stored in browser storage as `book-theme`
 * ("light" or "dark").
 *
 * Default when nothing is stored: content pages (every page on the shared layout) are dark, as
 * the spec says. A page that opts out with `defaultTheme="system"` on the layout follows the
 * visitor's system preference instead. The layout's inline head script applies the same rule
 * before first paint, so there is never a flash of the wrong theme; this module only keeps the
 * store and the <html> class in step afterwards.
 */
import { atom } from "nanostores";

export type Theme = "light" | "dark";
export const THEME_STORAGE_KEY = "book-theme";

function current(): Theme {
  if (typeof document === "undefined") return "dark";
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export const $theme = atom<Theme>(current());

/** Applies a theme to the page and remembers it for every later visit. */
export function setTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
  $theme.set(theme);
}

export function toggleTheme(): void {
  setTheme($theme.get() === "dark" ? "light" : "dark");
}

/**
 * The before-first-paint script, as a string for an inline <script> in <head>. It reads the
 * stored theme (and the stored auth flag, so the header shows the right links at once).
 */
export const EARLY_SCRIPT = `(function(){var d=document.documentElement,t=null,a=null;try{t=localStorage.getItem(${JSON.stringify(
  THEME_STORAGE_KEY,
)})}catch(e){}if(t!=="light"&&t!=="dark"){t=d.getAttribute("data-default-theme")==="system"&&window.matchMedia&&matchMedia("(prefers-color-scheme: light)").matches?"light":"dark"}d.classList.toggle("dark",t==="dark");d.style.colorScheme=t;try{a=JSON.parse(localStorage.getItem("systemAuth")||"null")}catch(e){}if(a&&a.isAuthenticated===true)d.setAttribute("data-auth","in")})()`;
