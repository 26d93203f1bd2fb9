import type { Config, Context } from "@netlify/functions";
import { completeScan } from "../../src/server/api/assessment.ts";

export default (request: Request, context: Context) => completeScan(request, context.params.id ?? "");

export const config: Config = { path: "/api/assessment/session/:id/complete" };
