import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminSubmissions } from "../../src/server/api/admin/submissions.ts";

export default serve((request) => adminSubmissions(request));

export const config: Config = { path: "/api/admin/assessment/sessions" };
