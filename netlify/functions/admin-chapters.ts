import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { adminChapters } from "../../src/server/api/admin/chapters.ts";

export default serve((request) => adminChapters(request));

export const config: Config = { path: "/api/admin/chapters" };
