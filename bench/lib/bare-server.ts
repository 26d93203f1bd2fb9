/**
 * The floor the product is compared with: a bare node:http server answering one fixed body, run
 * as its own process (as the product is). Usage: node bare-server.ts BODY_FILE CONTENT_TYPE [ENCODING]
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

const [file, type, encoding] = process.argv.slice(2);
const body = fs.readFileSync(file!);
const headers: Record<string, string | number> = { "content-type": type!, "content-length": body.length };
if (encoding) headers["content-encoding"] = encoding;
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers).end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
