/**
 * Reading requests safely: the client's address, same-site checks for state-changing calls, and
 * JSON bodies validated with zod (a 400 names the field).
 */
import { isIPv6 } from "node:net";
import { z } from "../../lib/zod.ts";
import { config } from "../config.ts";
import { HttpError, badRequest } from "./errors.ts";

/**
 * The header the client's address travels in: Netlify's proxy sets it, a function takes it from
 * its Context (runtime/serve.ts), and the local host sets it from the connection (or a trusted
 * proxy's X-Forwarded-For).
 */
export const CLIENT_IP_HEADER = "x-nf-client-connection-ip";

/**
 * Who is asking, for rate limits: the client's IPv4 address, or the /64 network of an IPv6 one
 * (one subscriber commonly holds a whole /64, so single addresses would be free to rotate).
 */
export function clientAddress(request: Request): string {
  return addressKey(request.headers.get(CLIENT_IP_HEADER)?.trim() || "unknown");
}

export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/**
 * Refuses a state-changing request that says it comes from another site: by Sec-Fetch-Site when
 * the browser sends it, otherwise by Origin, which must be the request's own origin or the site's
 * public one (SITE_URL: behind a proxy that ends TLS, the server sees http://... while browsers
 * send https://...). Requests without either (curl, server-to-server) pass: browsers always send
 * at least one of them on a cross-site POST.
 */
export function requireSameSite(request: Request): void {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") {
    throw new HttpError(403, "cross_site", "Requests from other sites are not accepted.");
  }
  const origin = request.headers.get("origin");
  const site = config().siteUrl;
  if (origin && origin !== new URL(request.url).origin && (!site || origin !== new URL(site).origin)) {
    throw new HttpError(403, "cross_site", "Requests from other sites are not accepted.");
  }
}

const DEFAULT_LIMIT = 64 * 1024;

/**
 * The request's JSON body, validated by `schema`. Same-site is checked first. 415 for a body that
 * is not JSON, 413 beyond `maxBytes`, 400 naming the first invalid field.
 */
export async function readJson<T extends z.ZodType>(
  request: Request,
  schema: T,
  maxBytes = DEFAULT_LIMIT,
): Promise<z.infer<T>> {
  requireSameSite(request);
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpError(415, "unsupported_media_type", "Send the body as JSON (Content-Type: application/json).");
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > maxBytes) throw new HttpError(413, "too_large", `The body is larger than ${maxBytes} bytes.`);
  const text = await readText(request, maxBytes);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw badRequest("The body is not valid JSON.");
  }
  return parseWith(schema, data);
}

/** Validates `data`; a failure is a 400 naming the field. */
export function parseWith<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join(".") : "body";
  throw badRequest(`${field}: ${issue.message}`);
}

/**
 * The request's body, refusing (413, or `tooLarge()`) as soon as more than `maxBytes` arrive:
 * a missing or false Content-Length cannot get past it.
 */
export async function readBody(
  request: Request,
  maxBytes: number,
  tooLarge = () => new HttpError(413, "too_large", `The body is larger than ${maxBytes} bytes.`),
): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBody(request, maxBytes));
}
