import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminSubsection } from "../../src/server/api/admin/subsections.ts";

export default serve((request, context) => adminSubsection(request, context.params.id ?? ""));

export const config: Config = { path: "/api/admin/subsections/:id" };
