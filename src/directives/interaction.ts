/**
 * `client:interaction`: an island that loads and hydrates only when the reader first needs it
 * (issue 13), so a page runs no framework code until then.
 *
 * - It wakes when the reader points at the island with a mouse or pen, presses on it (a finger, a
 *   mouse button), tabs into it (or had, before the directive came) or presses a key in it (a
 *   press on a link does not count: links work without the island), or on the window event named
 *   by the directive's value
 *   (`client:interaction={WAKE_TOASTS}`, src/lib/page-signals.ts).
 * - Its files are usually on their way by then: the page script prefetches them on the reader's
 *   first touch or key (src/scripts/page.ts, src/directives/integration.ts).
 * - It loads once what woke it is answered and drawn (after a press, once its click is), so the
 *   tap stays instant.
 * - A click inside the island while it loads is held and replayed once it is up: a tap that lands
 *   before hydration is not lost. A click on a link, a form field or a label, which work without
 *   the island (a radio button is checked at once), or one the page script has already answered
 *   (defaultPrevented, src/scripts/page.ts), is left alone: the island reads what it changed.
 *
 * The page script brings it, with Astro's island element (src/scripts/islands.ts), and the build
 * takes out the copy Astro writes inline into every page that has such an island
 * (src/build/island-runtime.ts). Each byte still counts towards a page's script budget.
 */
import type { ClientDirective } from "astro";

const WAKE_ON = ["pointerover", "pointerdown", "keydown", "focusin"];

const interaction: ClientDirective = (load, options, el) => {
  const event = typeof options.value === "string" && options.value;
  const held: MouseEvent[] = [];
  const hold = (click: Event) => {
    if (click.defaultPrevented || (click.target as Element).closest("a[href],label,input")) return;
    click.preventDefault();
    click.stopPropagation();
    held.push(click as MouseEvent);
  };
  let woken = false;
  const start = async () => {
    if (woken) return;
    woken = true;
    await (await load())();
    el.removeEventListener("click", hold, true);
    // Replayed as the reader made them, on the same element: React answers them now.
    for (const click of held) click.target!.dispatchEvent(new MouseEvent("click", click));
  };
  const wake = (cause: Event) => {
    const { type, pointerType } = cause as PointerEvent;
    // A finger arriving is handled as its press; a press on a link needs no island.
    if (type === "pointerover" && pointerType === "touch") return;
    if (type === "pointerdown" && (cause.target as Element).closest?.("a[href]")) return;
    for (const type of WAKE_ON) el.removeEventListener(type, wake, true);
    if (event) removeEventListener(event, wake);
    el.addEventListener("click", hold, true);
    // Whatever woke it is answered first and that frame drawn (a press: once it is let go; the
    // page script may open the drawer for it, whose focus lands in here): the island's files are
    // compiled and run after, not in the way of the tap (issue 33: 3).
    const later = () => requestAnimationFrame(() => setTimeout(start));
    if (type !== "pointerdown") return later();
    addEventListener("pointerup", later, { once: true });
    addEventListener("pointercancel", later, { once: true });
  };
  for (const type of WAKE_ON) el.addEventListener(type, wake, true);
  if (event) addEventListener(event, wake);
  // The focus came in before the directive did (the page script, which brings it, comes after the
  // first paint: decision 0032): it wakes the island as its focusin would have.
  if (el.contains(document.activeElement)) wake(new FocusEvent("focusin"));
};

export default interaction;
