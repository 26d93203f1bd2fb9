import type { Config } from "@netlify/functions";
import { health } from "../../src/server/api/health.ts";

export default (request: Request) => health(request);

export const config: Config = { path: "/api/health" };
