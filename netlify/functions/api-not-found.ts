import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { apiNotFound } from "../../src/server/api/not-found.ts";

export default serve((request) => apiNotFound(request));

export const config: Config = {};
