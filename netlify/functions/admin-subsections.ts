import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminSubsections } from "../../src/server/api/admin/subsections.ts";

export default serve((request) => adminSubsections(request));

export const config: Config = { path: "/api/admin/subsections" };
