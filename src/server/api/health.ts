import { currentConnection } from "../db/index.ts";
import { json, route } from "../http/respond.ts";

/** GET /api/health: 200 when the database answers, 503 (via the error mapping) when it does not. */
export const health = route({
  GET: async () => {
    const connection = await currentConnection();
    await connection.ping();
    return json({ status: "ok", database: connection.driver });
  },
});
