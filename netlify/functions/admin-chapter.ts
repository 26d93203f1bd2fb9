import type { Config, Context } from "@netlify/functions";
import { adminChapter } from "../../src/server/api/admin/chapters.ts";

export default (request: Request, context: Context) => adminChapter(request, context.params.id ?? "");

export const config: Config = { path: "/api/admin/chapters/:id" };
