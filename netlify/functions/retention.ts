import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { database } from "../../src/server/db/index.ts";
import { json } from "../../src/server/http/respond.ts";
import { runRetention } from "../../src/server/maintenance/retention.ts";

// Daily removal of what nobody needs any more (src/server/maintenance/retention.ts says what).
export default serve(async () => {
  const report = await runRetention(await database());
  console.log("Retention:", JSON.stringify(report));
  return json(report);
});

export const config: Config = { schedule: "@daily" };
