import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { database } from "../../src/server/db/index.ts";
import { json } from "../../src/server/http/respond.ts";
import { runPublishingJobs } from "../../src/server/maintenance/scheduled-publishing.ts";

// Cache purges that failed and are due again, then drafts whose publishing time has come
// (src/server/maintenance/scheduled-publishing.ts), every 15 minutes, in step with lead-webhooks.ts
// (one wake-up of the database for both): a draft goes live within 15 minutes of its time, a purge
// within 15 minutes of the purge API's return, and Neon still suspends the compute between runs.
export default serve(async () => {
  const result = await runPublishingJobs(await database());
  const { published, failed, cachePurges } = result;
  if (published.length > 0 || failed.length > 0 || cachePurges.purged + cachePurges.failed > 0) console.log("Scheduled publishing:", JSON.stringify(result));
  return json(result);
});

export const config: Config = { schedule: "*/15 * * * *" };
