import type { Config, Context } from "@netlify/functions";
import { adminAccessCodeReset } from "../../src/server/api/admin/access-codes.ts";

export default (request: Request, context: Context) => adminAccessCodeReset(request, context.params.login ?? "");

export const config: Config = { path: "/api/admin/access-codes/:login/reset-password" };
