import type { Config } from "@netlify/functions";
import { adminSessionState } from "../../src/server/api/admin/auth.ts";

export default (request: Request) => adminSessionState(request);

export const config: Config = { path: "/api/admin/session" };
