import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { chapterList } from "../../src/server/api/chapters.ts";

export default serve((request) => chapterList(request));

export const config: Config = { path: "/api/chapters" };
