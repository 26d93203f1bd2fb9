/**
 * Reads `npm install --loglevel=warn` output on standard input and fails on any warning other than
 * EBADENGINE for a dependency whose required Node the project's own Node satisfies (the ones
 * .npmrc keeps quiet: those packages run on the Node 24 the project installs, never on the Node
 * that runs npm install). A new kind of warning is shown and stops CI, so nothing is silenced
 * unseen.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const semver = require("semver") as { satisfies(version: string, range: string): boolean };

let text = "";
for await (const chunk of process.stdin) text += String(chunk);
const warnings = text.split("\n").filter((line) => line.startsWith("npm warn"));
const problems = warnings.filter((line) => !line.startsWith("npm warn EBADENGINE"));
for (const [, name, range] of text.matchAll(/package: '([^']+)',\s*\nnpm warn EBADENGINE\s+required: \{ node: '([^']+)'/g)) {
  if (!semver.satisfies(process.version, range!)) problems.push(`${name} requires Node ${range}, which the project's Node ${process.version} does not satisfy`);
}
if (problems.length > 0) {
  console.error(`npm install warned of more than dependencies' engines:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`npm install: ${warnings.length} warning lines, all dependencies' engines that Node ${process.version} satisfies.`);
