import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminSubmissionsCsv } from "../../src/server/api/admin/submissions.ts";

export default serve((request) => adminSubmissionsCsv(request));

export const config: Config = { path: "/api/admin/assessment/sessions.csv" };
