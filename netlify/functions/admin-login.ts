import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminLogin } from "../../src/server/api/admin/auth.ts";

export default serve((request) => adminLogin(request));

export const config: Config = { path: "/api/admin/login" };
