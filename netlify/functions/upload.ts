import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { uploadPhoto } from "../../src/server/api/admin/upload.ts";

export default serve((request) => uploadPhoto(request));

export const config: Config = { path: "/api/upload" };
