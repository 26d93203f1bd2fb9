import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminPublish } from "../../src/server/api/admin/publish.ts";

export default serve((request) => adminPublish(request));

export const config: Config = { path: "/api/admin/publish" };
