import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminChapterSubsections } from "../../src/server/api/admin/chapters.ts";

export default serve((request, context) => adminChapterSubsections(request, context.params.id ?? ""));

export const config: Config = { path: "/api/admin/chapters/:id/subsections" };
