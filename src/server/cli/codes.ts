/**
 * `npm run --silent codes -- <command>`: issue and manage access codes from the command line.
 *
 *   create --level Architect [--login NAME] [--password PW] [--expires DATE] [--max-sessions N] [--json]
 *   list [--json]
 *   deactivate LOGIN
 *   activate LOGIN
 *   reset-password LOGIN [--password PW] [--json]
 *   settings LOGIN [--expires DATE | --no-expiry] [--max-sessions N] [--json]
 *   end-sessions LOGIN [--json]
 *
 * --expires takes a day (2027-01-31: the code works through that day, UTC) or an ISO date-time with
 * its offset; it must be in the future. --max-sessions: 1 to 100 sessions at once (default 3).
 *
 * Works against DATABASE_URL, or the embedded database while the server is stopped.
 */
import { parseArgs } from "node:util";
import { DEFAULT_LEVEL, isLevel, LOCKED_LEVELS } from "../../lib/levels.ts";
import { expiresAtSchema, maxSessionsSchema } from "../../lib/content-schemas.ts";
import {
  endAccessCodeSessions,
  issueAccessCode,
  listAccessCodes,
  LOGIN_PATTERN,
  resetAccessCodePassword,
  setAccessCodeActive,
  setAccessCodeLimits,
} from "../repositories/access-codes.ts";
import { withDatabase } from "./with-database.ts";

const USAGE = `Usage: npm run --silent codes -- <command>
  create --level ${LOCKED_LEVELS.join("|")} [--login NAME] [--password PW] [--expires DATE] [--max-sessions N] [--json]
  list [--json]
  deactivate LOGIN
  activate LOGIN
  reset-password LOGIN [--password PW] [--json]
  settings LOGIN [--expires DATE | --no-expiry] [--max-sessions N] [--json]
  end-sessions LOGIN [--json]
--expires: a day (2027-01-31, the code works through it, UTC) or an ISO date-time such as
2027-01-31T18:00:00+01:00; it must be in the future. --max-sessions: 1 to 100 (default 3);
a sign-in beyond it ends the code's oldest session.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** The command line; an unknown option is said in one line with the usage, not as a stack trace. */
function parsed() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        level: { type: "string" },
        login: { type: "string" },
        password: { type: "string" },
        expires: { type: "string" },
        "no-expiry": { type: "boolean", default: false },
        "max-sessions": { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

const { values, positionals } = parsed();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const [command, target] = positionals;
const print = (data: unknown, text: string) => console.log(values.json ? JSON.stringify(data) : text);

if (values.login !== undefined && !LOGIN_PATTERN.test(values.login)) {
  fail("--login must be 3 to 64 letters, digits, dots, hyphens or underscores, starting with a letter or digit.");
}
if (values.password !== undefined && values.password.length < 8) fail("--password must be at least 8 characters.");

/** --expires as the instant the code ends: a bare day means the end of that day (UTC). */
function expiresOption(): Date | null | undefined {
  if (values["no-expiry"]) {
    if (values.expires !== undefined) fail("Give --expires or --no-expiry, not both.");
    return null;
  }
  if (values.expires === undefined) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? `${values.expires}T23:59:59.999Z` : values.expires;
  const parsed = expiresAtSchema.safeParse(iso);
  if (!parsed.success || parsed.data === null) fail(`--expires: ${parsed.error?.issues[0]?.message ?? "End date is required"} (got "${values.expires}").`);
  return new Date(parsed.data);
}

function maxSessionsOption(): number | undefined {
  const raw = values["max-sessions"];
  if (raw === undefined) return undefined;
  const parsed = maxSessionsSchema.safeParse(/^\s*-?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN);
  if (!parsed.success) fail(`--max-sessions: ${parsed.error.issues[0]!.message} (got "${raw}").`);
  return parsed.data;
}

const expiresAt = expiresOption();
const maxSessions = maxSessionsOption();
const limitsText = (code: { expiresAt: Date | null; maxSessions: number }) =>
  `${code.expiresAt ? `ends ${code.expiresAt.toISOString()}` : "never ends"}, at most ${code.maxSessions} session${code.maxSessions === 1 ? "" : "s"} at once`;

switch (command) {
  case "create": {
    // As the admin panel: Operator is open to everyone, so a code for it would give nothing.
    if (!isLevel(values.level) || !LOCKED_LEVELS.includes(values.level)) {
      fail(`--level must be ${LOCKED_LEVELS.join(" or ")} (${DEFAULT_LEVEL} is open to everyone and needs no code).`);
    }
    const level = values.level;
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const code = await issueAccessCode(db, { level, login: values.login, password: values.password, expiresAt, maxSessions });
      print(code, `Access code ${code.login} (${code.level}; ${limitsText(code)})\nPassword: ${code.password}\nThe password is shown only now.`);
    });
    break;
  }
  case "list":
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const codes = await listAccessCodes(db);
      print(
        codes,
        codes.length === 0
          ? "No access codes yet."
          : codes
              .map(
                (c) =>
                  `${c.login}\t${c.level}\t${c.isActive ? (c.expired ? "expired" : "active") : "inactive"}\t${limitsText(c)}\t` +
                  `${c.activeSessions} active session${c.activeSessions === 1 ? "" : "s"}\tlast used ${c.lastUsedAt?.toISOString() ?? "never"}`,
              )
              .join("\n"),
      );
    });
    break;
  case "deactivate":
  case "activate": {
    if (!target) fail(`${command} needs the access code's login.`);
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const code = await setAccessCodeActive(db, target, command === "activate");
      print(code, `${code.login} is now ${code.isActive ? "active" : "inactive"}.`);
    });
    break;
  }
  case "reset-password": {
    if (!target) fail("reset-password needs the access code's login.");
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const code = await resetAccessCodePassword(db, target, values.password);
      print(code, `New password for ${code.login}: ${code.password}\nThe password is shown only now; its old sessions have ended.`);
    });
    break;
  }
  case "settings": {
    if (!target) fail("settings needs the access code's login.");
    if (expiresAt === undefined && maxSessions === undefined) fail("settings needs --expires, --no-expiry or --max-sessions.");
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const code = await setAccessCodeLimits(db, target, { expiresAt, maxSessions });
      print(code, `${code.login} ${limitsText(code)}.`);
    });
    break;
  }
  case "end-sessions": {
    if (!target) fail("end-sessions needs the access code's login.");
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const result = await endAccessCodeSessions(db, target);
      print(result, `Ended ${result.ended} session${result.ended === 1 ? "" : "s"} of ${result.login}: its readers must sign in again.`);
    });
    break;
  }
  default:
    fail(command ? `Unknown command "${command}".` : "Missing command.");
}
