/** `client:interaction` (src/directives/interaction.ts) in Astro's component types. */
declare namespace Astro {
  interface ClientDirectives {
    /** Hydrate on the first interaction inside the island, or on the window event named here. */
    "client:interaction"?: boolean | string;
  }
}
