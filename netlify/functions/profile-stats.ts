import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { profileStats } from "../../src/server/api/reading.ts";

export default serve((request) => profileStats(request));

export const config: Config = { path: "/api/profile/stats" };
