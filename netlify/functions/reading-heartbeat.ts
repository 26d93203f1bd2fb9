import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { heartbeat } from "../../src/server/api/reading.ts";

export default serve((request) => heartbeat(request));

export const config: Config = { path: "/api/reading/heartbeat" };
