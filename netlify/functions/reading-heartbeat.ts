import type { Config } from "@netlify/functions";
import { heartbeat } from "../../src/server/api/reading.ts";

export default (request: Request) => heartbeat(request);

export const config: Config = { path: "/api/reading/heartbeat" };
