import type { Config } from "@netlify/functions";
import { adminAccessCodes } from "../../src/server/api/admin/access-codes.ts";

export default (request: Request) => adminAccessCodes(request);

export const config: Config = { path: "/api/admin/access-codes" };
