import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminPublishDraft } from "../../src/server/api/admin/drafts.ts";

export default serve((request, context) => adminPublishDraft(request, context.params.kind ?? "", context.params.id ?? ""));

export const config: Config = { path: "/api/admin/:kind/:id/publish" };
