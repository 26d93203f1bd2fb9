import type { Config } from "@netlify/functions";
import { logout } from "../../src/server/api/auth.ts";

export default (request: Request) => logout(request);

export const config: Config = { path: "/api/auth/logout" };
