import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminAccessCodeEndSessions } from "../../src/server/api/admin/access-codes.ts";

export default serve((request, context) => adminAccessCodeEndSessions(request, context.params.login ?? ""));

export const config: Config = { path: "/api/admin/access-codes/:login/end-sessions" };
