import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminDeletedSubsections } from "../../src/server/api/admin/subsections.ts";

export default serve((request) => adminDeletedSubsections(request));

export const config: Config = { path: "/api/admin/subsections/deleted/recent" };
