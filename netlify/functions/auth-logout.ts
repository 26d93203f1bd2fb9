import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { logout } from "../../src/server/api/auth.ts";

export default serve((request) => logout(request));

export const config: Config = { path: "/api/auth/logout" };
