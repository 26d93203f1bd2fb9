import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { validate } from "../../src/server/api/auth.ts";

export default serve((request) => validate(request));

export const config: Config = { path: "/api/auth/validate" };
