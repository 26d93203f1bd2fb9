/**
 * The layout's before-first-paint script (src/stores/theme.ts has the rule it applies). Build-time
 * only: Base.astro inlines the string, so no page bundles this module.
 */
import { FACE_LATER, PAGE_SCRIPT_ATTRIBUTE } from "../lib/page-signals.ts";
import { FACE_KEY, SELECTED_LEVEL_KEY, SIGNED_IN_COOKIE, THEME_KEY } from "../lib/storage-keys.ts";
import { DEFAULT_LEVEL, LEVELS } from "../lib/levels.ts";

/**
 * The before-first-paint script, as a string for an inline <script> in <head>. It reads the
 * stored theme, and whether the browser holds a reader session (the readable "signed in" cookie
 * the server sets with it), so the header shows the right links at once. And on a browser that
 * has never loaded the book's face, it marks the page to paint in the fallback first (issue 33:
 * 2): the face then comes after the first paint (src/scripts/page.ts), where it shared the first
 * round trips with the page.
 *
 * And it imports the page script (named on <html data-script> by the build:
 * src/build/page-script-later.ts) once the page is parsed and its first contentful paint
 * presented (the first largest-contentful-paint entry; a "paint" entry may be the first paint of
 * backgrounds alone), so that paint never waits on the script's run or shares the line with its
 * request (issue 45: 3, decision 0032). A page that never paints while its reader looks (a tab
 * opened in the background) or a browser without LCP entries gets it 2 s after the parse.
 */
export const EARLY_SCRIPT = `(()=>{let d=document.documentElement,t,f,s=d.getAttribute(${JSON.stringify(PAGE_SCRIPT_ATTRIBUTE)});try{t=localStorage.getItem(${JSON.stringify(
  THEME_KEY,
)});f=localStorage.getItem(${JSON.stringify(FACE_KEY)})}catch(e){f=1}if(t!="light")t="dark";d.classList.toggle("dark",t=="dark");d.style.colorScheme=t;if(!f)d.dataset.face=${JSON.stringify(
  FACE_LATER,
)};if(/${SIGNED_IN_COOKIE}=1/.test(document.cookie))d.setAttribute("data-auth","in");s&&addEventListener("DOMContentLoaded",()=>{let g=()=>{s&&import(s);s=0};new PerformanceObserver(g).observe({type:"largest-contentful-paint",buffered:!0});setTimeout(g,2e3)})})()`;

/**
 * `/`'s script, run as its head is parsed (issue 44: 2): a reader who reads the Operator level (not
 * signed in, or a member whose selected level is Operator or none) goes straight to its first
 * chapter, the slug the page was built with, with nothing of `/` painted (it is hidden) and none of
 * its files fetched. Another member's `/` keeps SPEC's loading, error and empty states (the page's
 * own script). A browser without scripts follows the page's refresh to the same chapter.
 */
export function startScript(firstSlug: string): string {
  return `(()=>{let l;try{l=localStorage.getItem(${JSON.stringify(SELECTED_LEVEL_KEY)})}catch(e){}if(!/${SIGNED_IN_COOKIE}=1/.test(document.cookie)||!l||l=="Operator"){document.documentElement.hidden=!0;location.replace(${JSON.stringify(`/${firstSlug}`)})}})()`;
}

/**
 * /resume's script, run as its head is parsed (issue 44: 3): the locked level the address asks for
 * (`?level=`, lib/levels.ts askedLevel), marked on <html data-asked>, so the built card shows that
 * level's words from the first paint (global.css) rather than gaining a line when the island wakes.
 */
export const ASKED_SCRIPT = `(()=>{let l=new URLSearchParams(location.search).get("level");if(${JSON.stringify(LEVELS.filter((level) => level !== DEFAULT_LEVEL))}.includes(l))document.documentElement.dataset.asked=l})()`;
