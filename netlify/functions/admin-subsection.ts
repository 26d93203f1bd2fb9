import type { Config, Context } from "@netlify/functions";
import { adminSubsection } from "../../src/server/api/admin/subsections.ts";

export default (request: Request, context: Context) => adminSubsection(request, context.params.id ?? "");

export const config: Config = { path: "/api/admin/subsections/:id" };
