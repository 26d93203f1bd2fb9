/**
 * Writing a list's order: a transaction-scoped advisory lock per list, so reorders of one list run
 * one after the other instead of deadlocking, and the `(id, position)` rows of one
 * `UPDATE ... FROM (VALUES ...)` statement.
 */
import { sql, type SQL } from "./orm.ts";

interface Executor {
  execute(query: SQL): Promise<unknown>;
}

/** Holds the list's lock until the transaction ends. */
export async function lockList(tx: Executor, list: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`reorder: ${list}`}))`);
}

/** `(id, position), ...` for the ids in their new order, positions counted from `first`. */
export function positions(ids: readonly number[], first: number): SQL {
  return sql.join(
    ids.map((id, index) => sql`(${id}::integer, ${index + first}::integer)`),
    sql`, `,
  );
}
