import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { chapterBySlug } from "../../src/server/api/chapters.ts";

export default serve((request, context) => chapterBySlug(request, context.params.slug ?? ""));

export const config: Config = { path: "/api/chapters/:slug" };
