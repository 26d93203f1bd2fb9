import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { dispatchApi } from "../../src/server/api/routes.ts";

// Every API address and every stored photo, through one route table (src/server/api/routes.ts):
// one instance kept warm for a whole visit. The image upload has a function of its own (upload.ts).
export default serve((request) => dispatchApi(request));

// (Netlify reads this config without running the file: literal values only.)
export const config: Config = { path: ["/api/*", "/uploads/:name"], excludedPath: ["/api/upload"] };
