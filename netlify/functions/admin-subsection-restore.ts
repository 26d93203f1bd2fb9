import type { Config, Context } from "@netlify/functions";
import { adminSubsectionRestore } from "../../src/server/api/admin/subsections.ts";

export default (request: Request, context: Context) => adminSubsectionRestore(request, context.params.id ?? "");

export const config: Config = { path: "/api/admin/subsections/:id/restore" };
