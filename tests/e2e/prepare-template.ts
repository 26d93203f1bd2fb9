/**
 * The end-to-end run's template (global-setup.ts), prepared on its own: `npm test` runs this beside
 * its vitest stage (tests/run-all.ts), so the Playwright stage starts with it in place.
 */
import { prepareTemplate } from "./global-setup.ts";

await prepareTemplate();
