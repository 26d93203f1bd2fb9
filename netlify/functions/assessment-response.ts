import type { Config } from "@netlify/functions";
import { saveScanResponse } from "../../src/server/api/assessment.ts";

export default (request: Request) => saveScanResponse(request);

export const config: Config = { path: "/api/assessment/response" };
