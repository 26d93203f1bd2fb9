import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { session } from "../../src/server/api/auth.ts";

export default serve((request) => session(request));

export const config: Config = { path: "/api/auth/session" };
