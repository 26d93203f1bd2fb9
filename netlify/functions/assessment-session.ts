import type { Config } from "@netlify/functions";
import { startScan } from "../../src/server/api/assessment.ts";

export default (request: Request) => startScan(request);

export const config: Config = { path: "/api/assessment/session" };
