import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { health } from "../../src/server/api/health.ts";

export default serve((request) => health(request));

export const config: Config = { path: "/api/health" };
