import type { Config, Context } from "@netlify/functions";
import { chapterSubsections } from "../../src/server/api/chapters.ts";

export default (request: Request, context: Context) =>
  chapterSubsections(request, context.params.chapterId ?? "");

export const config: Config = { path: "/api/chapters/:chapterId/subsections" };
