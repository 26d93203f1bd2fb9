import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { saveScanResponse } from "../../src/server/api/assessment.ts";

export default serve((request) => saveScanResponse(request));

export const config: Config = { path: "/api/assessment/response" };
