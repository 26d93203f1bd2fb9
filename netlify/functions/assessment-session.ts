import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { startScan } from "../../src/server/api/assessment.ts";

export default serve((request) => startScan(request));

export const config: Config = { path: "/api/assessment/session" };
