/**
 * Statements a database driver keeps parsed and planned under a name, where drizzle's prepared
 * statements do not (PGlite: src/server/db/pglite-statement.ts). The driver offers them when it
 * opens; code that runs everywhere asks, and keeps drizzle's path where none is offered (pg and
 * Neon name drizzle's prepared statements themselves). This module imports no driver, so Netlify
 * Functions can import it.
 */
import type { Database } from "./types.ts";

/** Answers the statement's rows for `values` (each row an array of its columns, parsed). */
export type NamedStatement = (values: readonly unknown[]) => Promise<unknown[][]>;
type Maker = (name: string, text: string) => NamedStatement | null;

const makers = new WeakMap<Database, Maker>();

export function offerNamedStatements(db: Database, maker: Maker): void {
  makers.set(db, maker);
}

/** The statement `text` kept under `name` on `db`, or null where `db` offers none. */
export function namedStatement(db: Database, name: string, text: string): NamedStatement | null {
  return makers.get(db)?.(name, text) ?? null;
}
