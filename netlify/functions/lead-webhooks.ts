import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { database } from "../../src/server/db/index.ts";
import { json } from "../../src/server/http/respond.ts";
import { runLeadDeliveries } from "../../src/server/maintenance/lead-deliveries.ts";

// Lead webhook deliveries due for a (re)try (src/server/maintenance/lead-deliveries.ts), every 15
// minutes, in step with scheduled-publishing.ts: Neon suspends a compute after 5 idle minutes, so
// a job every minute would keep the database awake (and billed) around the clock.
export default serve(async () => {
  const report = await runLeadDeliveries(await database());
  if (report.delivered + report.retrying + report.failed > 0) console.log("Lead webhooks:", JSON.stringify(report));
  return json(report);
});

export const config: Config = { schedule: "*/15 * * * *" };
