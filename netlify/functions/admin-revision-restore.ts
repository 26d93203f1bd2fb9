import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminRevisionRestore } from "../../src/server/api/admin/revisions.ts";

export default serve((request, context) => adminRevisionRestore(request, context.params.id ?? ""));

export const config: Config = { path: "/api/admin/revisions/:id/restore" };
