import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { previewPage } from "../../src/server/pages/preview-page.ts";

export default serve((request, context) => previewPage(request, context.params.id ?? ""));

// The admin's preview of a chapter as a reader of a tier would see it (never cached, noindex).
export const config: Config = { path: "/admin/preview/:id" };
