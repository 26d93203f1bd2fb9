import type { Config } from "@netlify/functions";
import { validate } from "../../src/server/api/auth.ts";

export default (request: Request) => validate(request);

export const config: Config = { path: "/api/auth/validate" };
