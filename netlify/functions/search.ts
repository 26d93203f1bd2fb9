import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { search } from "../../src/server/api/search.ts";

export default serve((request) => search(request));

export const config: Config = { path: "/api/search" };
