import type { Config } from "@netlify/functions";
import { profileStats } from "../../src/server/api/reading.ts";

export default (request: Request) => profileStats(request);

export const config: Config = { path: "/api/profile/stats" };
