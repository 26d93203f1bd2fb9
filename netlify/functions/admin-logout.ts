import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminLogout } from "../../src/server/api/admin/auth.ts";

export default serve((request) => adminLogout(request));

export const config: Config = { path: "/api/admin/logout" };
