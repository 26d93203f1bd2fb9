import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminSetup } from "../../src/server/api/admin/auth.ts";

export default serve((request) => adminSetup(request));

export const config: Config = { path: "/api/admin/setup" };
