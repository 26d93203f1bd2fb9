import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminSessionState } from "../../src/server/api/admin/auth.ts";

export default serve((request) => adminSessionState(request));

export const config: Config = { path: "/api/admin/session" };
