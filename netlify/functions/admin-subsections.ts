import type { Config } from "@netlify/functions";
import { adminSubsections } from "../../src/server/api/admin/subsections.ts";

export default (request: Request) => adminSubsections(request);

export const config: Config = { path: "/api/admin/subsections" };
