import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminRevisions } from "../../src/server/api/admin/revisions.ts";

export default serve((request, context) => adminRevisions(request, context.params.kind ?? "", context.params.id ?? ""));

export const config: Config = { path: "/api/admin/:kind/:id/revisions" };
