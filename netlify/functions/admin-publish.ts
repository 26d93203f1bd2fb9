import type { Config } from "@netlify/functions";
import { adminPublish } from "../../src/server/api/admin/publish.ts";

export default (request: Request) => adminPublish(request);

export const config: Config = { path: "/api/admin/publish" };
