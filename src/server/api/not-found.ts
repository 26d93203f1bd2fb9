import { errorBody, json } from "../http/respond.ts";

/** Any /api address no function claims: a JSON 404, never the HTML 404 page. */
export const apiNotFound = async (request: Request) =>
  json(errorBody("not_found", `There is no API at ${new URL(request.url).pathname}.`), { status: 404 });
