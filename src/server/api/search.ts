/**
 * GET /api/search?q=...: the Architect and Mastermind passages a signed-in reader may read that
 * match the words (titles and short snippets, src/server/search/locked-search.ts). Operator text
 * is searched in the browser from the static index, so it is not answered here. Without a session
 * 401; an Operator code gets no results. Counted per client address, as the other open routes are.
 */
import { accessibleLevels } from "../../lib/levels.ts";
import { SEARCH_MAX_LENGTH } from "../../lib/search-query.ts";
import { take, type Limit } from "../access/rate-limit.ts";
import { readerLevel } from "../access/reader.ts";
import { database } from "../db/index.ts";
import { badRequest, unauthenticated } from "../http/errors.ts";
import { clientAddress } from "../http/request.ts";
import { json, route } from "../http/respond.ts";
import { searchLocked } from "../search/locked-search.ts";

/** A reader types: each pause sends one request. 120 a minute is plenty for a person, not for a script. */
export const SEARCH_LIMIT: Limit = { bucket: "search", max: 120, windowMs: 60 * 1000 };

export const search = route({
  GET: async (request) => {
    const query = new URL(request.url).searchParams.get("q") ?? "";
    if (query.length > SEARCH_MAX_LENGTH) throw badRequest(`q must be at most ${SEARCH_MAX_LENGTH} characters.`);
    const level = await readerLevel(request);
    if (level === null) throw unauthenticated("Sign in with an access code to search Architect and Mastermind chapters.");
    const db = await database();
    await take(db, SEARCH_LIMIT, clientAddress(request));
    return json({ results: await searchLocked(db, query, accessibleLevels(level)) }, { headers: { "cache-control": "private, no-store" } });
  },
});
