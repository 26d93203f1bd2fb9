import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { scanResult } from "../../src/server/api/assessment.ts";

export default serve((request, context) => scanResult(request, context.params.token ?? ""));

export const config: Config = { path: "/api/assessment/result/:token" };
