/**
 * `npm run bench:lcp`: Lighthouse mobile on our first Operator chapter and on the same chapter
 * built with Starlight (bench/lib/starlight.ts), ROUNDS (default 7) paired rounds, alternating
 * which goes first, in the same run (issue 20: 3; issue 33: 2 asks for at least 7), each round a new
 * visitor (a cold cache and no stored data). Prints each round, the medians, and where our LCP's time
 * goes (Lighthouse's LCP breakdown: time to first byte, load delay, load time, render delay).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { startProduct } from "../tests/support/product-server.ts";
import { launchChromium } from "./lib/lighthouse.ts";
import { starlightSite } from "./lib/starlight.ts";

const rounds = Number(process.env.ROUNDS || 7);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-lcp-"));
const server = await startProduct({ DATABASE_URL: "", DATA_DIR: work, SITE_DIR: path.join(work, "site") });
const starlight = await starlightSite();
const chrome = await launchChromium();

/**
 * What Lighthouse clears after each round: its defaults keep localStorage, IndexedDB and cookies,
 * so every round after the first would be a returning reader with an empty HTTP cache (ours then
 * knows the browser has had the face: decision 0021). Each round is a new visitor.
 */
const NEW_VISITOR = ["file_systems", "shader_cache", "service_workers", "cache_storage", "local_storage", "indexeddb", "cookies"] as const;

async function once(url: string) {
  const lhr = (await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"], clearStorageTypes: [...NEW_VISITOR] }))!.lhr;
  const breakdown = (lhr.audits["lcp-breakdown-insight"]?.details as { items?: Array<{ items?: Array<{ label?: string; subpart?: string; duration?: number }> }> } | undefined)?.items?.[0]?.items ?? [];
  const node = (lhr.audits["largest-contentful-paint-element"]?.details as { items?: Array<{ items?: Array<{ node?: { snippet?: string; selector?: string; nodeLabel?: string } }> }> } | undefined)?.items?.[0]?.items?.[0]?.node;
  const element = node && `${node.selector} "${node.nodeLabel?.slice(0, 40)}"`;
  const metrics = (lhr.audits["metrics"]?.details as { items?: Array<Record<string, number>> } | undefined)?.items?.[0] ?? {};
  const observedLcp = metrics.observedLargestContentfulPaint ?? 0;
  const requests = (lhr.audits["network-requests"]?.details as { items?: Array<{ url: string; networkRequestTime: number; transferSize: number }> } | undefined)?.items ?? [];
  return {
    observed: `observed FCP ${Math.round(metrics.observedFirstContentfulPaint ?? 0)}, LCP ${Math.round(observedLcp)}; before it: ${requests
      .filter((r) => r.networkRequestTime < observedLcp)
      .map((r) => `${r.url.split("/").pop()!.slice(0, 24)} ${r.transferSize}`)
      .join(", ")}`,
    lcp: Math.round(lhr.audits["largest-contentful-paint"]!.numericValue!),
    fcp: Math.round(lhr.audits["first-contentful-paint"]!.numericValue!),
    score: Math.round((lhr.categories.performance!.score ?? 0) * 100),
    cls: Number(lhr.audits["cumulative-layout-shift"]!.numericValue!.toFixed(3)),
    element,
    breakdown: Object.fromEntries(breakdown.map((part) => [part.subpart ?? part.label, Math.round(part.duration ?? 0)])),
  };
}

try {
  const list = (await (await fetch(`${server.url}/api/chapters`)).json()) as Array<{ slug: string; level: string }>;
  const ours = `${server.url}/${list.find((c) => c.level === "Operator")!.slug}`;
  for (let i = 0; i < 2; i++) await (await fetch(ours)).arrayBuffer(); // kept by the CDN stand-in, as the bench has it
  const lcps: Record<"ours" | "starlight", number[]> = { ours: [], starlight: [] };
  for (let round = 1; round <= rounds; round++) {
    // Alternating which goes first, so neither always meets a warmer machine.
    const first = round % 2 ? await once(ours) : await once(starlight.chapterUrl);
    const second = round % 2 ? await once(starlight.chapterUrl) : await once(ours);
    const [a, b] = round % 2 ? [first, second] : [second, first];
    lcps.ours.push(a.lcp);
    lcps.starlight.push(b.lcp);
    console.log(`round ${round}: ours LCP ${a.lcp} (FCP ${a.fcp}, score ${a.score}, CLS ${a.cls}) ${JSON.stringify(a.breakdown)}; Starlight LCP ${b.lcp} (FCP ${b.fcp}, score ${b.score}, CLS ${b.cls}) ${JSON.stringify(b.breakdown)}`);
    console.log(`  ours: ${a.element}; ${a.observed}\n  Starlight: ${b.element}; ${b.observed}`);
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const wins = lcps.ours.filter((lcp, i) => lcp <= lcps.starlight[i]!).length;
  const ratio = median(lcps.ours)! / median(lcps.starlight)!;
  console.log(`median LCP: ours ${median(lcps.ours)} ms, Starlight ${median(lcps.starlight)} ms, ratio ${ratio.toFixed(2)}; ours <= Starlight's in ${wins} of ${rounds} rounds`);
} finally {
  chrome.kill();
  await starlight.close();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
