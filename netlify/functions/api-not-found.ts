import type { Config } from "@netlify/functions";
import { apiNotFound } from "../../src/server/api/not-found.ts";

export default (request: Request) => apiNotFound(request);

export const config: Config = {};
