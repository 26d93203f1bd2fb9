/**
 * Publish to live, on `npm start`'s server (issue 45: 2): an admin saves a chapter, and a reader
 * asks until what they get shows it. Two kinds of edit:
 *   - text: an Operator chapter's text (PUT /api/admin/chapters/:id); live when a reader's GET of
 *     that chapter's page holds the new words (the path that purges the cached page);
 *   - list: another Operator chapter renamed, which changes the chapter list; live when the new
 *     title is in what a reader gets on a different chapter's page: its HTML, or any file that page
 *     loads for its chapter list (a shared list file, a script, JSON: followed two links deep),
 *     the path that rebuilds the site. The publish status (GET /api/admin/publish) is followed too:
 *     when it reports the change live (state live, nothing pending).
 * Times in ms from the save's request; null when it never went live within the time allowed.
 */

export interface Chapter {
  id: number;
  slug: string;
  title: string;
  content: string;
  readingTime: number;
  order: number;
  level: string;
}

export interface LiveTimes {
  /** A reader gets the change. */
  readerMs: number | null;
  /** The publish status reports it live (state live, nothing pending). */
  statusMs: number | null;
}

const TIMEOUT_MS = 600_000;
const POLL_MS = 50;

async function cookieFrom(response: Response): Promise<string> {
  await response.arrayBuffer();
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

/** Signs the admin in; answers the session cookie. */
export async function adminCookie(base: string, admin: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${base}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) });
  if (response.status !== 200) throw new Error(`admin login: ${response.status} ${await response.text()}`);
  return cookieFrom(response);
}

export async function adminChapters(base: string, cookie: string): Promise<Chapter[]> {
  return (await (await fetch(`${base}/api/admin/chapters`, { headers: { cookie } })).json()) as Chapter[];
}

interface PublishView {
  state: string;
  pending: boolean;
}

async function publishLive(base: string, cookie: string): Promise<boolean> {
  const view = (await (await fetch(`${base}/api/admin/publish`, { headers: { cookie } })).json()) as PublishView;
  return view.state === "live" && !view.pending;
}

/** Waits until the publish status reports nothing pending (the previous change's rebuild done). */
export async function settled(base: string, cookie: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await publishLive(base, cookie)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
}

function save(base: string, cookie: string, chapter: Chapter, change: Partial<Chapter>): Promise<Response> {
  const { slug, title, content, readingTime, order, level } = { ...chapter, ...change };
  return fetch(`${base}/api/admin/chapters/${chapter.id}`, {
    method: "PUT",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ slug, title, content, readingTime, order, level }),
  });
}

/** Same-origin files a page or script names that may carry the chapter list (not pages, images, fonts, styles or the API). */
function linkedFiles(text: string, base: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/["'`(](\/[A-Za-z0-9_./@~-]+\.(?:m?js|json|txt))(?:[?#][^"'`)]*)?["'`)]/g)) {
    if (!match[1]!.startsWith("/api/")) found.add(`${base}${match[1]}`);
  }
  return [...found];
}

/**
 * Whether `text` is in what a reader gets at `url`: the response, and the files it names, two
 * links deep. Content-hashed files (/_astro/) never change, so each is fetched once (`immutable`).
 */
export async function readerGets(url: string, text: string, immutable = new Map<string, string>()): Promise<boolean> {
  const base = new URL(url).origin;
  const seen = new Set<string>();
  let level = [url];
  for (let depth = 0; depth < 3 && level.length; depth++) {
    const next: string[] = [];
    for (const address of level) {
      if (seen.has(address)) continue;
      seen.add(address);
      let body = immutable.get(address);
      if (body === undefined) {
        const response = await fetch(address);
        body = response.ok ? await response.text() : (await response.arrayBuffer(), "");
        if (new URL(address).pathname.startsWith("/_astro/")) immutable.set(address, body);
      }
      if (body.includes(text)) return true;
      if (depth < 2) next.push(...linkedFiles(body, base));
    }
    level = next;
  }
  return false;
}

/** Polls `readerDone` and the publish status until both are done (or the time is up). */
async function until(base: string, cookie: string, started: number, readerDone: () => Promise<boolean>): Promise<LiveTimes> {
  const times: LiveTimes = { readerMs: null, statusMs: null };
  const deadline = started + TIMEOUT_MS;
  while ((times.readerMs === null || times.statusMs === null) && performance.now() < deadline) {
    if (times.readerMs === null && (await readerDone())) times.readerMs = Math.round(performance.now() - started);
    if (times.statusMs === null && (await publishLive(base, cookie))) times.statusMs = Math.round(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return times;
}

/** An Operator chapter's text edited: until a reader's GET of its page shows the new words. */
export async function textEditToLive(base: string, cookie: string, chapter: Chapter): Promise<LiveTimes> {
  await settled(base, cookie);
  const page = `${base}/${chapter.slug}`;
  for (let i = 0; i < 2; i++) await (await fetch(page)).arrayBuffer(); // in the CDN stand-in's cache, as readers before found it
  const marker = `Edited for the bench at ${Date.now()}.`;
  const started = performance.now();
  const saved = await save(base, cookie, chapter, { content: `${chapter.content}\n\n${marker}` });
  if (saved.status !== 200) throw new Error(`saving the text: ${saved.status} ${await saved.text()}`);
  await saved.arrayBuffer();
  return until(base, cookie, started, async () => (await (await fetch(page)).text()).includes(marker));
}

/**
 * `renamed` (an Operator chapter) gets a new title: until it is in what a reader gets on
 * `watched`'s page (a chapter near it, whose rail and drawer list it: decision 0029) and in the
 * shared chapter list every page shows in full once the reader reaches for it (GET /api/chapters).
 */
export async function listEditToLive(base: string, cookie: string, renamed: Chapter, watched: Chapter): Promise<LiveTimes> {
  await settled(base, cookie);
  const page = `${base}/${watched.slug}`;
  const immutable = new Map<string, string>();
  if (!(await readerGets(page, renamed.title, immutable))) throw new Error(`"${renamed.title}" is not in what a reader gets on ${page}: the list check would mean nothing`);
  const title = `Renamed for the bench ${Date.now().toString(36)}`;
  const started = performance.now();
  const saved = await save(base, cookie, renamed, { title });
  if (saved.status !== 200) throw new Error(`saving the title: ${saved.status} ${await saved.text()}`);
  await saved.arrayBuffer();
  const listed = async () => (await (await fetch(`${base}/api/chapters`)).text()).includes(JSON.stringify(title));
  const times = await until(base, cookie, started, async () => (await readerGets(page, title, immutable)) && (await listed()));
  await settled(base, cookie);
  return times;
}
