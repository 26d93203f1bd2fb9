/** The statements the application sends while `work` runs (BEGIN and COMMIT count: each is a round trip). */
import { onQuery } from "../../src/server/db/query-log.ts";

export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const stop = onQuery((statement) => statements.push(statement));
  try {
    await work();
  } finally {
    stop();
  }
  return statements;
}
