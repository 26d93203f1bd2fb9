import type { Config, Context } from "@netlify/functions";
import { servePhoto } from "../../src/server/api/admin/upload.ts";

export default (request: Request, context: Context) => servePhoto(request, context.params.name ?? "");

export const config: Config = { path: "/uploads/:name" };
