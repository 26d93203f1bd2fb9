import type { Config } from "@netlify/functions";
import { session } from "../../src/server/api/auth.ts";

export default (request: Request) => session(request);

export const config: Config = { path: "/api/auth/session" };
