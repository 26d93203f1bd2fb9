/** The database types every layer shares (type-only: no driver is loaded by importing them). */
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Driver = "pglite" | "pg" | "neon";
export type RemoteDriver = Exclude<Driver, "pglite">;
