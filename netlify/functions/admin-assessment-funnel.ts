import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminScanFunnel } from "../../src/server/api/admin/submissions.ts";

export default serve((request) => adminScanFunnel(request));

export const config: Config = { path: "/api/admin/assessment/funnel" };
