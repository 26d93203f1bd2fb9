import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminAccessCodeSettings } from "../../src/server/api/admin/access-codes.ts";

export default serve((request, context) => adminAccessCodeSettings(request, context.params.login ?? ""));

export const config: Config = { path: "/api/admin/access-codes/:login/settings" };
