import type { Config, Context } from "@netlify/functions";
import { chapterBySlug } from "../../src/server/api/chapters.ts";

export default (request: Request, context: Context) => chapterBySlug(request, context.params.slug ?? "");

export const config: Config = { path: "/api/chapters/:slug" };
