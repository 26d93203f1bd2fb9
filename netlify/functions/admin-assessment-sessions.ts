import type { Config } from "@netlify/functions";
import { adminSubmissions } from "../../src/server/api/admin/submissions.ts";

export default (request: Request) => adminSubmissions(request);

export const config: Config = { path: "/api/admin/assessment/sessions" };
