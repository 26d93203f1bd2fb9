import type { Config } from "@netlify/functions";
import { adminDeletedChapters } from "../../src/server/api/admin/chapters.ts";

export default (request: Request) => adminDeletedChapters(request);

export const config: Config = { path: "/api/admin/chapters/deleted/recent" };
