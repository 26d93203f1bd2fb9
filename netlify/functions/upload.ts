import type { Config } from "@netlify/functions";
import { uploadPhoto } from "../../src/server/api/admin/upload.ts";

export default (request: Request) => uploadPhoto(request);

export const config: Config = { path: "/api/upload" };
