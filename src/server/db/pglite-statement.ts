/**
 * A named statement on PGlite: parsed and planned once, then answered with one call into the
 * WebAssembly engine each time (bind, describe, execute, sync).
 *
 * PGlite's own `query()` parses and plans its text at every call and crosses into WebAssembly five
 * times; drizzle's prepared statements do the same on PGlite (they keep no name there). For the
 * chapter page key, asked at every locked page, that was 1.2-1.9 ms a statement against 0.5 ms
 * named (measured on this machine; issue 20: 7).
 *
 * A call waits its turn as PGlite's queries do: after any transaction under way, never inside one.
 * Taking that turn uses PGlite's own transaction lock (`_runExclusiveTransaction`, which `query()`
 * takes): where a PGlite version has none, `pgliteStatement` answers null and the caller keeps
 * drizzle's path.
 */
import { protocol, type PGlite } from "@electric-sql/pglite";
import type { NamedStatement } from "./named-statements.ts";
import { queryLogger } from "./query-log.ts";

type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

interface Message {
  name: string;
  dataTypeIDs?: number[];
  fields?: Array<{ dataTypeID: number } | string | null>;
}

/** PostgreSQL's invalid_sql_statement_name: the named statement is gone (a DISCARD, a new session). */
const STATEMENT_GONE = "26000";

export function pgliteStatement(client: PGlite, name: string, text: string): NamedStatement | null {
  const transactionTurn = (client as unknown as { _runExclusiveTransaction?: Exclusive })._runExclusiveTransaction;
  if (typeof transactionTurn !== "function") return null;
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => transactionTurn.call(client, () => client.runExclusive(work)) as Promise<T>;
  const { serialize } = protocol;
  let parameterTypes: number[] | null = null;

  const send = async (...messages: Uint8Array[]): Promise<Message[]> =>
    (await client.execProtocol(concat(messages), { syncToFs: false })).messages as unknown as Message[];

  const prepare = async (): Promise<number[]> => {
    const answer = await send(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync());
    return answer.find((message) => message.name === "parameterDescription")?.dataTypeIDs ?? [];
  };

  const execute = async (values: readonly unknown[]): Promise<unknown[][]> => {
    parameterTypes ??= await prepare();
    const types = parameterTypes;
    const serialized = values.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = client.serializers[types[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const answer = await send(
      serialize.bind({ statement: name, values: serialized }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    );
    const columns = (answer.find((message) => message.name === "rowDescription")?.fields ?? []) as Array<{ dataTypeID: number }>;
    return answer
      .filter((message) => message.name === "dataRow")
      .map((row) => (row.fields as Array<string | null>).map((field, i) => (field === null ? null : (client.parsers[columns[i]!.dataTypeID] ?? String)(field, columns[i]!.dataTypeID))));
  };

  return (values) => {
    queryLogger.logQuery(text);
    return exclusive(async () => {
      try {
        return await execute(values);
      } catch (error) {
        if ((error as { code?: unknown }).code !== STATEMENT_GONE) throw error;
        parameterTypes = null;
        return execute(values);
      }
    });
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
