/**
 * Sends an island's wake event (a WAKE_ name of src/lib/page-signals.ts): now, and again once
 * Astro's island element is defined if it is not yet, since an island listens only from then. The
 * page script defines it (src/scripts/islands.ts) and comes after the first paint (decision 0032),
 * so a page's own script that wakes an island as it runs (/assessment's) comes before it.
 */
export function wakeIsland(name: string): void {
  dispatchEvent(new Event(name));
  if (!customElements.get("astro-island")) void customElements.whenDefined("astro-island").then(() => dispatchEvent(new Event(name)));
}
