import { withDatabase } from "./with-database.ts";

await withDatabase(async (handle) => {
  await handle.migrate();
  console.log(`Migrations applied (${handle.driver}).`);
});
