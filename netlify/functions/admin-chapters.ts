import type { Config } from "@netlify/functions";
import { adminChapters } from "../../src/server/api/admin/chapters.ts";

export default (request: Request) => adminChapters(request);

export const config: Config = { path: "/api/admin/chapters" };
