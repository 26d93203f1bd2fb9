import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { completeScan } from "../../src/server/api/assessment.ts";

export default serve((request, context) => completeScan(request, context.params.id ?? ""));

export const config: Config = { path: "/api/assessment/session/:id/complete" };
