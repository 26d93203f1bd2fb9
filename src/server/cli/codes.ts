/**
 * `npm run --silent codes -- <command>`: issue and manage access codes from the command line.
 *
 *   create --level Architect [--login NAME] [--password PW] [--json]
 *   list [--json]
 *   deactivate LOGIN
 *   activate LOGIN
 *   reset-password LOGIN [--password PW] [--json]
 *
 * Works against DATABASE_URL, or the embedded database while the server is stopped.
 */
import { parseArgs } from "node:util";
import { isLevel, LEVELS } from "../../lib/levels.ts";
import {
  issueAccessCode,
  listAccessCodes,
  LOGIN_PATTERN,
  resetAccessCodePassword,
  setAccessCodeActive,
} from "../repositories/access-codes.ts";
import { withDatabase } from "./with-database.ts";

const USAGE = `Usage: npm run --silent codes -- <command>
  create --level ${LEVELS.join("|")} [--login NAME] [--password PW] [--json]
  list [--json]
  deactivate LOGIN
  activate LOGIN
  reset-password LOGIN [--password PW] [--json]`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    level: { type: "string" },
    login: { type: "string" },
    password: { type: "string" },
    json: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const [command, target] = positionals;
const print = (data: unknown, text: string) => console.log(values.json ? JSON.stringify(data) : text);

if (values.login !== undefined && !LOGIN_PATTERN.test(values.login)) {
  fail("--login must be 3 to 64 letters, digits, dots, hyphens or underscores, starting with a letter or digit.");
}
if (values.password !== undefined && values.password.length < 8) fail("--password must be at least 8 characters.");

switch (command) {
  case "create": {
    if (!isLevel(values.level)) fail(`--level must be one of ${LEVELS.join(", ")}.`);
    const level = values.level;
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const code = await issueAccessCode(db, { level, login: values.login, password: values.password });
      print(code, `Access code ${code.login} (${code.level})\nPassword: ${code.password}\nThe password is shown only now.`);
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
              .map((c) => `${c.login}\t${c.level}\t${c.isActive ? "active" : "inactive"}\tlast used ${c.usedAt?.toISOString() ?? "never"}`)
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
  default:
    fail(command ? `Unknown command "${command}".` : "Missing command.");
}
