/**
 * The entry of every Netlify Function: netlify/functions/*.ts wrap their handler in `serve`.
 *
 * On Netlify's runtime, each request first has its configuration checked for its deploy context:
 * a missing DATABASE_URL or SESSION_SECRET is written to the function log and answered 503, with
 * no fallback. (A missing BUILD_HOOK_URL is not: without it only publishing a change of the static
 * pages fails, and the admin panel's publish status says why.) Then the request gets one database connection
 * of its own, opened on its first query and closed when it ends (after the response, through
 * `context.waitUntil`): Neon's guidance for serverless functions, as an instance may be frozen or
 * dropped between requests and must not hold connections.
 *
 * On the local host the process's database is installed already and the handler runs as it is.
 */
import { currentPlatform, loadFunctionConfig, type Config } from "../config.ts";
import { withRequestDatabase } from "../db/index.ts";
import { connectRemote } from "../db/remote.ts";
import { CLIENT_IP_HEADER } from "../http/request.ts";
import { errorBody, json } from "../http/respond.ts";
import { withWaitUntil } from "./request-scope.ts";

/** What the platform passes a function besides the request (Netlify's Context; the local host sends params). */
export interface FunctionContext {
  params: Record<string, string | undefined>;
  deploy?: { context?: string };
  /** The client's address, as Netlify documents it for functions. */
  ip?: string;
  waitUntil?: (promise: Promise<unknown>) => void;
}

type Handler = (request: Request, context: FunctionContext) => Response | Promise<Response>;

export function serve(handler: Handler): (request: Request, context: FunctionContext) => Promise<Response> {
  return async (request, context) => {
    if (currentPlatform() !== "netlify-functions") return handler(request, context);
    let settings: Config;
    try {
      settings = loadFunctionConfig(context.deploy?.context);
    } catch (error) {
      console.error(`${error instanceof Error ? error.message : String(error)} (${request.method} ${new URL(request.url).pathname} answered 503)`);
      return json(errorBody("not_configured", "The site is not fully configured yet. Try again later."), {
        status: 503,
        headers: { "retry-after": "60" },
      });
    }
    const { driver, databaseUrl } = settings;
    // The client's address is the one the platform gives the function (Context.ip), whatever
    // the request's headers say.
    if (context.ip) {
      const headers = new Headers(request.headers);
      headers.set(CLIENT_IP_HEADER, context.ip);
      request = new Request(request, { headers });
    }
    const waitUntil = context.waitUntil && ((work: Promise<unknown>) => context.waitUntil!(work));
    return withWaitUntil(waitUntil, () =>
      withRequestDatabase(
        () => connectRemote(driver === "neon" ? "neon" : "pg", databaseUrl!, { max: 1 }),
        async () => handler(request, context),
        waitUntil,
      ),
    );
  };
}
