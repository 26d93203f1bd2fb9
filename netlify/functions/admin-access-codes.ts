import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminAccessCodes } from "../../src/server/api/admin/access-codes.ts";

export default serve((request) => adminAccessCodes(request));

export const config: Config = { path: "/api/admin/access-codes" };
