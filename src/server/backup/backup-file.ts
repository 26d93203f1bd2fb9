/**
 * The backup file: JSON lines, gzip-compressed when the name ends in `.gz`.
 *
 *   line 1      the header: format, version, when, the migration level, each table with its
 *               columns and row count (in restore order), each sequence's position
 *   then        each table's rows in that order, one JSON object per line, exactly as
 *               PostgreSQL's row_to_json wrote it (never re-encoded here, so no number, time or
 *               JSON value is rounded on the way)
 *   last line   {"end":true,"rows":N}, so a cut-off file is told from a complete one
 *
 * A backup holds everything: password hashes, webhook secrets, session ids, respondents' names
 * and emails. So the file is its owner's alone (mode 0600, also when it replaces an older file),
 * and it is written and read as a stream of row batches, never held whole in memory (issue 21: 6).
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { z } from "../../lib/zod.ts";

export const BACKUP_FORMAT = "system-book-backup";
export const BACKUP_VERSION = 1;
/** Only the owner may read or write a backup. */
export const BACKUP_FILE_MODE = 0o600;

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

/** Some consecutive rows of one table, as JSON text, with the file line of the first. */
export interface RowBatch {
  table: string;
  rows: string[];
  firstLine?: number;
}

/** A backup to restore: its header, and its rows in batches, table by table in the header's order. */
export interface Backup {
  header: BackupHeader;
  batches(): AsyncIterable<RowBatch>;
}

/** Rows per batch read from a file: a few thousand, and a few megabytes at most. */
const BATCH_ROWS = 2000;
const BATCH_BYTES = 4 * 1024 * 1024;

export class BackupFileError extends Error {
  override name = "BackupFileError";
}

/**
 * Writes a backup to `file` as its rows arrive, whole or not at all: into a new `file.partial`
 * (mode 0600 from the start), renamed into place at the end, so a file that existed before,
 * whatever its mode, is replaced by one only its owner can read. `batches` must give each
 * table's rows in the header's order, as many as the header counts. Answers the file's size.
 */
export async function writeBackupFile(file: string, backupHeader: BackupHeader, batches: AsyncIterable<RowBatch>): Promise<number> {
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  const out = fs.createWriteStream(partial, { flags: "wx", mode: BACKUP_FILE_MODE });
  try {
    const text = Readable.from(backupLines(backupHeader, batches));
    if (file.endsWith(".gz")) await pipeline(text, createGzip(), out);
    else await pipeline(text, out);
    // Written and on disk before it takes the name: a crash leaves the old backup or the new one.
    const fd = fs.openSync(partial, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(partial, BACKUP_FILE_MODE);
    fs.renameSync(partial, file);
  } catch (error) {
    out.destroy();
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return fs.statSync(file).size;
}

/** The file's text, a batch at a time: the header, each table's rows, the end marker. */
async function* backupLines(backupHeader: BackupHeader, batches: AsyncIterable<RowBatch>): AsyncGenerator<string> {
  yield `${JSON.stringify(backupHeader)}\n`;
  const tables = backupHeader.tables;
  let at = 0;
  let count = 0;
  let total = 0;
  const closeTable = (next: string | null) => {
    while (at < tables.length && tables[at]!.name !== next) {
      if (count !== tables[at]!.rows) {
        throw new Error(`The backup of ${tables[at]!.name} gave ${count} rows where ${tables[at]!.rows} were counted; nothing was written. Try again.`);
      }
      at++;
      count = 0;
    }
  };
  for await (const batch of batches) {
    if (batch.table !== tables[at]?.name) closeTable(batch.table);
    if (at >= tables.length) throw new Error(`Rows of ${batch.table} came out of order; nothing was written.`);
    count += batch.rows.length;
    total += batch.rows.length;
    if (batch.rows.length > 0) yield `${batch.rows.join("\n")}\n`;
  }
  closeTable(null);
  yield `${JSON.stringify({ end: true, rows: total })}\n`;
}

/**
 * Opens a backup file: reads it through once, checking every line (the header, each row a JSON
 * object, as many rows as the header counts, the end marker), without keeping the rows; they are
 * read again, in batches, as the restore asks for them. A damaged or foreign file is a
 * BackupFileError naming the file and the line, never quoting a row.
 */
export async function openBackupFile(file: string): Promise<Backup> {
  let found: BackupHeader | undefined;
  for await (const _batch of readBatches(file, (h) => (found = h))) {
    // Only checked here.
  }
  const backupHeader = found!;
  return { header: backupHeader, batches: () => readBatches(file, (again) => sameHeader(file, backupHeader, again)) };
}

function sameHeader(file: string, first: BackupHeader, again: BackupHeader): void {
  if (JSON.stringify(first) !== JSON.stringify(again)) throw new BackupFileError(`${file}: changed while it was being restored.`);
}

async function* readBatches(file: string, onHeader: (header: BackupHeader) => void): AsyncGenerator<RowBatch> {
  const fail = (why: string): never => {
    throw new BackupFileError(`${file}: ${why}`);
  };
  const lines = readLines(file, fail);
  try {
    yield* checkedBatches(lines, fail, onHeader);
  } finally {
    // Closes the file also when the reader stops early (a restore that failed half-way).
    await lines.return(undefined);
  }
}

async function* checkedBatches(
  lines: AsyncGenerator<string>,
  fail: (why: string) => never,
  onHeader: (header: BackupHeader) => void,
): AsyncGenerator<RowBatch> {
  let number = 0;
  const next = async (): Promise<string | undefined> => {
    const step = await lines.next();
    if (step.done) return undefined;
    number++;
    return step.value;
  };
  const first = parseLine((await next()) ?? "");
  if (!first || (first as { format?: unknown }).format !== BACKUP_FORMAT) {
    return fail(`is not a backup made by \`npm run backup\` (its first line is not a ${BACKUP_FORMAT} header).`);
  }
  const parsed = header.safeParse(first);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(`has a header this version cannot read (${issue.path.join(".")}: ${issue.message}).`);
  }
  onHeader(parsed.data);
  let total = 0;
  for (const table of parsed.data.tables) {
    let batch: string[] = [];
    let bytes = 0;
    let firstLine = number + 1;
    for (let i = 0; i < table.rows; i++) {
      const line = await next();
      if (line === undefined) fail(`ends early: ${table.name} should have ${table.rows} rows, the file has ${i}.`);
      const row = parseLine(line!);
      if (!row || typeof row !== "object" || Array.isArray(row)) fail(`line ${number} (a row of ${table.name}) is not a JSON object.`);
      batch.push(line!);
      bytes += line!.length;
      if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
        yield { table: table.name, rows: batch, firstLine };
        batch = [];
        bytes = 0;
        firstLine = number + 1;
      }
    }
    if (batch.length > 0) yield { table: table.name, rows: batch, firstLine };
    total += table.rows;
  }
  const endLine = await next();
  const end = parseLine(endLine ?? "") as { end?: unknown; rows?: unknown } | null;
  if (!end || end.end !== true) fail(`ends early or has extra lines: line ${number + (endLine === undefined ? 1 : 0)} should be the end marker.`);
  if (end!.rows !== total) fail(`the end marker counts ${String(end!.rows)} rows, the tables ${total}.`);
  let extra = 0;
  while ((await next()) !== undefined) extra++;
  if (extra > 0) fail(`has ${extra} lines after the end marker.`);
}

/** The file's lines, one at a time (a last empty line is no line), gunzipped when it is gzip. */
async function* readLines(file: string, fail: (why: string) => never): AsyncGenerator<string> {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    return fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  const magic = Buffer.alloc(2);
  const gzip = fs.readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  const raw = fs.createReadStream("", { fd, start: 0 });
  const stream = gzip ? raw.pipe(createGunzip()) : raw;
  raw.on("error", (error) => stream.destroy(error));
  let pending: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let from = 0;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, from)) {
        pending.push(chunk.subarray(from, at));
        yield Buffer.concat(pending).toString("utf8");
        pending = [];
        from = at + 1;
      }
      if (from < chunk.length) pending.push(chunk.subarray(from));
    }
  } catch (error) {
    if (gzip && (error as NodeJS.ErrnoException).code?.startsWith("Z_")) return fail("is a damaged gzip file.");
    return fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  } finally {
    raw.destroy();
    stream.destroy();
  }
  if (pending.length > 0) yield Buffer.concat(pending).toString("utf8");
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
