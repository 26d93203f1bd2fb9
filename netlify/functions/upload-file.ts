import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { servePhoto } from "../../src/server/api/photos.ts";

export default serve((request, context) => servePhoto(request, context.params.name ?? ""));

export const config: Config = { path: "/uploads/:name" };
