import { seed } from "../content/seed.ts";
import { withDatabase } from "./with-database.ts";

await withDatabase(async (handle) => {
  await handle.migrate();
  const { inserted, skipped } = await seed(handle.db);
  console.log(`Seed book: ${inserted} chapters added, ${skipped} already present (left as they are).`);
});
