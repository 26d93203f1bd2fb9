import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { chapterSubsections } from "../../src/server/api/chapters.ts";

export default serve((request, context) => chapterSubsections(request, context.params.chapterId ?? ""));

export const config: Config = { path: "/api/chapters/:chapterId/subsections" };
