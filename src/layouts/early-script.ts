/**
 * The layout's before-first-paint script (src/stores/theme.ts has the rule it applies). Build-time
 * only: Base.astro inlines the string, so no page bundles this module.
 */
import { SIGNED_IN_COOKIE, THEME_KEY } from "../lib/storage-keys.ts";

/**
 * The before-first-paint script, as a string for an inline <script> in <head>. It reads the
 * stored theme, and whether the browser holds a reader session (the readable "signed in" cookie
 * the server sets with it), so the header shows the right links at once.
 */
export const EARLY_SCRIPT = `(()=>{let d=document.documentElement,t;try{t=localStorage.getItem(${JSON.stringify(
  THEME_KEY,
)})}catch(e){}if(t!="light"&&t!="dark")t=d.dataset.defaultTheme=="system"&&matchMedia("(prefers-color-scheme: light)").matches?"light":"dark";d.classList.toggle("dark",t=="dark");d.style.colorScheme=t;if(/${SIGNED_IN_COOKIE}=1/.test(document.cookie))d.setAttribute("data-auth","in")})()`;
