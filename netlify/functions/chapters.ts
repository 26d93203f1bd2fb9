import type { Config } from "@netlify/functions";
import { chapterList } from "../../src/server/api/chapters.ts";

export default (request: Request) => chapterList(request);

export const config: Config = { path: "/api/chapters" };
