import type { Config, Context } from "@netlify/functions";
import { adminAccessCodeActive } from "../../src/server/api/admin/access-codes.ts";

export default (request: Request, context: Context) => adminAccessCodeActive(request, context.params.login ?? "");

export const config: Config = { path: "/api/admin/access-codes/:login/active" };
