import type { Config } from "@netlify/functions";
import { adminDeletedSubsections } from "../../src/server/api/admin/subsections.ts";

export default (request: Request) => adminDeletedSubsections(request);

export const config: Config = { path: "/api/admin/subsections/deleted/recent" };
