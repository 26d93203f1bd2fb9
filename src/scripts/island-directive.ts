/**
 * Registers the `client:interaction` directive as Astro's inline copy does (src/scripts/islands.ts
 * says why it is here): on the global `Astro`, which the island element reads, with the event
 * that starts an island defined before it.
 */
import interaction from "../directives/interaction.ts";

const astro = ((self as { Astro?: Record<string, unknown> }).Astro ??= {});
astro.interaction = interaction;
dispatchEvent(new Event("astro:interaction"));
