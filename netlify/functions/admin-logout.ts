import type { Config } from "@netlify/functions";
import { adminLogout } from "../../src/server/api/admin/auth.ts";

export default (request: Request) => adminLogout(request);

export const config: Config = { path: "/api/admin/logout" };
