import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminSubsectionRestore } from "../../src/server/api/admin/subsections.ts";

export default serve((request, context) => adminSubsectionRestore(request, context.params.id ?? ""));

export const config: Config = { path: "/api/admin/subsections/:id/restore" };
