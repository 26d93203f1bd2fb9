/**
 * Astro's island element as the page script brings it (src/scripts/islands.ts), without four
 * features this site never uses, so the page script stays within its 5 KB before interaction
 * (budgets.test) with the early script's import of it (decision 0032):
 * - unmounting on `astro:after-swap`, which only Astro's client router sends (the site has none);
 * - the `before-hydration-url` module, which only renderers with a before-hydration script set
 *   (React has none: no built page carries the attribute);
 * - a dotted `component-export` path (`Foo.Bar`): every island of ours is a module's default
 *   export, read as before, with the same guard against `__proto__` and its kin;
 * - the cancellable `astro:hydration-error` event, which nothing here listens for: a failed
 *   hydration is logged to the console as before.
 * Each cut names the text it takes out: an Astro upgrade that changes that text fails the build
 * here, rather than leaving a runtime no one has read.
 */
import type { Plugin } from "vite";

const RUNTIME = /\/astro\/dist\/runtime\/server\/astro-island\.js$/;

const CUTS: Array<{ what: string; from: string; to: string }> = [
  {
    what: "unmounting on astro:after-swap",
    from: `    disconnectedCallback() {
      document.removeEventListener("astro:after-swap", this.unmount);
      document.addEventListener("astro:after-swap", this.unmount, { once: true });
    }
`,
    to: "",
  },
  {
    what: "the unmount event",
    from: `    unmount = () => {
      if (!this.isConnected) this.dispatchEvent(new CustomEvent("astro:unmount"));
    };
`,
    to: "",
  },
  {
    what: "the before-hydration module",
    from: `      let beforeHydrationUrl = this.getAttribute("before-hydration-url");
      if (beforeHydrationUrl) {
        await import(beforeHydrationUrl);
      }
`,
    to: "",
  },
  {
    what: "the hydration error event",
    from: `      const event = new CustomEvent("astro:hydration-error", {
        cancelable: true,
        bubbles: true,
        composed: true,
        detail: {
          error,
          componentUrl
        }
      });
      const shouldLogError = this.dispatchEvent(event);
      if (shouldLogError) {
        console.error(\`[astro-island] Error hydrating \${componentUrl}\`, error);
      }
`,
    to: `      console.error(\`[astro-island] Error hydrating \${componentUrl}\`, error);
`,
  },
  {
    what: "the dotted component export",
    from: `              if (!componentExport.includes(".")) {
                if (FORBIDDEN_COMPONENT_EXPORT_KEYS.has(componentExport)) {
                  throw new Error(\`Invalid component export path: \${componentExport}\`);
                }
                this.Component = componentModule[componentExport];
              } else {
                this.Component = componentModule;
                for (const part of componentExport.split(".")) {
                  if (FORBIDDEN_COMPONENT_EXPORT_KEYS.has(part) || !this.Component || typeof this.Component !== "object" && typeof this.Component !== "function" || !Object.hasOwn(this.Component, part)) {
                    throw new Error(\`Invalid component export path: \${componentExport}\`);
                  }
                  this.Component = this.Component[part];
                }
              }
`,
    to: `              if (FORBIDDEN_COMPONENT_EXPORT_KEYS.has(componentExport)) {
                throw new Error(\`Invalid component export path: \${componentExport}\`);
              }
              this.Component = componentModule[componentExport];
`,
  },
];

/** Astro's island runtime (its source, `code`) with the cuts above; throws if one's text is not there. */
export function trimIslandRuntime(code: string): string {
  for (const { what, from, to } of CUTS) {
    if (!code.includes(from)) throw new Error(`Astro's island runtime changed: ${what} is not where src/build/island-runtime-trim.ts expects it`);
    code = code.replace(from, to);
  }
  return code;
}

/** The Vite plugin that applies it to the runtime the page script imports. */
export function islandRuntimeTrim(): Plugin {
  return {
    name: "island-runtime-trim",
    transform(code, id) {
      return RUNTIME.test(id.split("?")[0]!) ? { code: trimIslandRuntime(code), map: null } : undefined;
    },
  };
}
