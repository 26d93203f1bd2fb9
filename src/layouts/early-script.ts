/**
 * The layout's before-first-paint script (src/stores/theme.ts has the rule it applies). Build-time
 * only: Base.astro inlines the string, so no page bundles this module.
 */
import { AUTH_KEY, THEME_KEY } from "../lib/storage-keys.ts";

/**
 * The before-first-paint script, as a string for an inline <script> in <head>. It reads the
 * stored theme (and the stored auth flag, so the header shows the right links at once).
 */
export const EARLY_SCRIPT = `(()=>{let d=document.documentElement,t,a;try{t=localStorage.getItem(${JSON.stringify(THEME_KEY)});a=JSON.parse(localStorage.getItem(${JSON.stringify(
  AUTH_KEY,
)}))}catch(e){}if(t!="light"&&t!="dark")t=d.dataset.defaultTheme=="system"&&matchMedia("(prefers-color-scheme: light)").matches?"light":"dark";d.classList.toggle("dark",t=="dark");d.style.colorScheme=t;if(a&&a.isAuthenticated===true)d.setAttribute("data-auth","in")})()`;
