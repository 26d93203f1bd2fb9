import type { Config } from "@netlify/functions";
import { adminSubmissionsCsv } from "../../src/server/api/admin/submissions.ts";

export default (request: Request) => adminSubmissionsCsv(request);

export const config: Config = { path: "/api/admin/assessment/sessions.csv" };
