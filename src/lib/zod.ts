/**
 * zod for code that also runs in the browser. Pages run under a strict Content-Security-Policy
 * (no eval); zod's just-in-time parsers would probe `new Function`, which the browser reports as
 * a policy violation even though zod falls back. jitless skips the probe; our payloads are small.
 */
// By path, not by package name: see src/server/db/orm.ts (one copy of zod, bundled into functions).
import { z } from "../../node_modules/zod/index.js";

z.config({ jitless: true });

export { z };
