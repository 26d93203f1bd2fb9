import type { Config } from "@netlify/functions";
import { adminSetup } from "../../src/server/api/admin/auth.ts";

export default (request: Request) => adminSetup(request);

export const config: Config = { path: "/api/admin/setup" };
