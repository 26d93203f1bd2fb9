import type { Config } from "@netlify/functions";
import { adminLogin } from "../../src/server/api/admin/auth.ts";

export default (request: Request) => adminLogin(request);

export const config: Config = { path: "/api/admin/login" };
