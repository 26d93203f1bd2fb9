import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminChapterRestore } from "../../src/server/api/admin/chapters.ts";

export default serve((request, context) => adminChapterRestore(request, context.params.id ?? ""));

export const config: Config = { path: "/api/admin/chapters/:id/restore" };
