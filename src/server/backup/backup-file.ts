/**
 * The backup file: JSON lines, gzip-compressed when the name ends in `.gz`.
 *
 *   line 1      the header: format, version, when, the migration level, each table with its
 *               columns and row count (in restore order), each sequence's position
 *   then        each table's rows in that order, one JSON object per line, exactly as
 *               PostgreSQL's row_to_json wrote it (never re-encoded here, so no number, time or
 *               JSON value is rounded on the way)
 *   last line   {"end":true,"rows":N}, so a cut-off file is told from a complete one
 */
import fs from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "../../lib/zod.ts";

export const BACKUP_FORMAT = "system-book-backup";
export const BACKUP_VERSION = 1;

const header = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.string(),
  driver: z.string(),
  migrations: z.array(z.object({ tag: z.string(), when: z.string() })),
  tables: z.array(z.object({ name: z.string().min(1), columns: z.array(z.string().min(1)), rows: z.number().int().min(0) })),
  sequences: z.array(z.object({ name: z.string().min(1), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() })),
});

export type BackupHeader = z.infer<typeof header>;

export interface Backup {
  header: BackupHeader;
  /** Each table's rows as JSON text, by table name. */
  rows: Map<string, string[]>;
}

export class BackupFileError extends Error {
  override name = "BackupFileError";
}

/** Writes the backup to `file` whole or not at all (a temporary file renamed into place). */
export function writeBackupFile(file: string, backup: Backup): number {
  const lines = [JSON.stringify(backup.header)];
  let total = 0;
  for (const table of backup.header.tables) {
    const rows = backup.rows.get(table.name) ?? [];
    for (const row of rows) lines.push(row);
    total += rows.length;
  }
  lines.push(JSON.stringify({ end: true, rows: total }));
  const text = `${lines.join("\n")}\n`;
  const bytes = file.endsWith(".gz") ? gzipSync(text) : Buffer.from(text, "utf8");
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  return bytes.length;
}

/** Reads and checks a backup file; a damaged or foreign file is a BackupFileError naming the file. */
export function readBackupFile(file: string): Backup {
  const fail = (why: string): never => {
    throw new BackupFileError(`${file}: ${why}`);
  };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    return fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString("utf8");
  } catch {
    return fail("is a damaged gzip file.");
  }
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const first = parseLine(lines[0] ?? "");
  if (!first || (first as { format?: unknown }).format !== BACKUP_FORMAT) {
    return fail(`is not a backup made by \`npm run backup\` (its first line is not a ${BACKUP_FORMAT} header).`);
  }
  const parsed = header.safeParse(first);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(`has a header this version cannot read (${issue.path.join(".")}: ${issue.message}).`);
  }
  const rows = new Map<string, string[]>();
  let at = 1;
  for (const table of parsed.data.tables) {
    const mine = lines.slice(at, at + table.rows);
    mine.forEach((line, i) => {
      const row = parseLine(line);
      if (!row || typeof row !== "object" || Array.isArray(row)) fail(`line ${at + i + 1} (a row of ${table.name}) is not a JSON object.`);
    });
    if (mine.length < table.rows) fail(`ends early: ${table.name} should have ${table.rows} rows, the file has ${mine.length}.`);
    rows.set(table.name, mine);
    at += table.rows;
  }
  const end = parseLine(lines[at] ?? "") as { end?: unknown; rows?: unknown } | null;
  const total = parsed.data.tables.reduce((sum, t) => sum + t.rows, 0);
  if (!end || end.end !== true) fail(`ends early or has extra lines: line ${at + 1} should be the end marker.`);
  if (end!.rows !== total) fail(`the end marker counts ${String(end!.rows)} rows, the tables ${total}.`);
  if (lines.length !== at + 1) fail(`has ${lines.length - at - 1} lines after the end marker.`);
  return { header: parsed.data, rows };
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
