/**
 * zod for code that also runs in the browser. Pages run under a strict Content-Security-Policy
 * (no eval); zod's just-in-time parsers would probe `new Function`, which the browser reports as
 * a policy violation even though zod falls back. jitless skips the probe; our payloads are small.
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };
