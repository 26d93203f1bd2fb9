/**
 * The page script: all a page does before the reader first needs an island (issue 13), in one
 * small module with no framework and no store. Base.astro runs it on every page.
 *
 * - every page: the theme switch; the session asked of the server, only by a browser that holds a
 *   sign-in (`mayHoldSession`), and stored (`systemAuth`, the header's links); the full stylesheet
 *   and, on a first visit, the book's face, after the first paint; F8 to the notification region;
 *   a notice the previous page left; the chapter drawer on a tap that lands before the Navigator
 *   island is up; the meeting request (/in-person);
 * - chapter pages: ArrowLeft/h and ArrowRight/l (the server-rendered rel=prev/next links), the
 *   reading-progress bar (also /apply), the rail hiding on scrolling down, the live chapter-list
 *   check for a member (a redirect or a level switch, SPEC.md section 4), continue reading, "On
 *   this page" and the reading heartbeats;
 * - the rail's and the drawer's items, from the one shared chapter list (issue 45: 1), whenever
 *   it is known: this tab's copy, a member's page's own fetch, or the Navigator island's word.
 *
 * The islands take over without doing anything twice. They read what this script stored (the
 * session, the selected level, the cached chapter list) instead of asking again; the keys, the
 * progress bar and the rail's scrolling stay here for good. The Navigator island
 * (client:interaction) wakes when the reader points at it or touches it and adopts a drawer
 * opened here.
 * The Toasts island wakes with a notice.
 *
 * It shares no module with the islands, so it ships as one small file: constants come from
 * src/lib/page-signals.ts and src/lib/storage-keys.ts (inlined), and the level rule is a copy of
 * src/lib/levels.ts's (page.test.ts checks that they agree).
 */
import type { ChapterEntry } from "../lib/level-chapters.ts";
import type { Level } from "../lib/levels.ts";
import {
  BOOK_FACE,
  FACE_NEXT,
  FULL_SHEET_ID,
  SHEET_IN,
  ISLAND_FILES_ID,
  SESSION_CHECKED,
  SHOW_CHAPTERS,
  WAKE_TOASTS,
} from "../lib/page-signals.ts";
import {
  AUTH_KEY,
  CHAPTER_LIST_KEY,
  CHAPTER_LIST_TTL_MS,
  FACE_KEY,
  NOTEBOOK_KEYS_DATABASE,
  NOTEBOOK_LOCAL_KEY,
  NOTEBOOK_PENDING_KEY,
  NOTEBOOK_REFUSED_KEY,
  NOTEBOOK_SEEN_KEY,
  PENDING_NOTICE_KEY,
  READER_PLACE_KEY,
  SELECTED_LEVEL_KEY,
} from "../lib/storage-keys.ts";
import { currentTheme, setTheme } from "../stores/theme.ts";
import { nextRailState, type RailScrollState } from "./rail-visibility.ts";
// Built as scripts of their own (IIFEs), whose addresses only are in this one.
import personalScript from "./personal.ts?worker&url";
import listsScript from "./chapter-lists-view.ts?worker&url";

const LEVELS: readonly string[] = ["Operator", "Architect", "Mastermind"];
/** A level's rank, lowest 0; -1 for anything that is no level (null: nobody signed in). */
const rank = (level: unknown) => LEVELS.indexOf(level as string);

/** src/lib/levels.ts `levelOf`: a stored level, where null or unknown values count as Operator. */
export const levelOf = (value: unknown) => (rank(value) > 0 ? (value as Level) : "Operator");

/** src/lib/levels.ts `canAccess`: whether a reader holding `held` may read `required`. */
export const canAccess = (held: Level | null, required: Level) => rank(required) < 1 || rank(held) >= rank(required);

/** src/lib/level-chapters.ts `chaptersFor`: one level's chapters a reader may open, in reading order. */
export const chaptersFor = (all: readonly ChapterEntry[], level: Level, held: Level | null) =>
  canAccess(held, level) ? all.filter((c) => levelOf(c.level) === level).sort((a, b) => a.order - b.order || a.id - b.id) : [];

/** Where a key takes the reader (the rel of the link it follows): ArrowLeft or h back, ArrowRight or l forward. */
export const STEPS: Partial<Record<string, "prev" | "next">> = { ArrowLeft: "prev", h: "prev", ArrowRight: "next", l: "next" };

/** The page's scroll percentage, 0 to 100; a page too short to scroll counts as read. */
export function scrollPercent(y: number, height: number, viewport: number): number {
  const scrollable = height - viewport;
  return scrollable > 0 ? Math.min(100, Math.max(0, Math.round((y / scrollable) * 100))) : 100;
}

/** The selected level (SPEC.md section 4): the stored one while the reader may read it, else Operator. */
export const selectedLevel = (stored: string | null, held: Level | null) => (canAccess(held, levelOf(stored)) ? levelOf(stored) : "Operator");

/**
 * Where the reader stands once the live list is known (SPEC.md section 4): on a chapter they may
 * read, its level is the selected one (in the selected level's list, or followed a link to it:
 * decision 0006); on a chapter gone or out of reach, the stored selection's first chapter (`go`).
 */
export function readerMove(slug: string, all: readonly ChapterEntry[], stored: string | null, held: Level | null): { level: Level; go?: string } {
  const here = all.find((c) => c.slug === slug);
  if (here && canAccess(held, levelOf(here.level))) return { level: levelOf(here.level) };
  const level = selectedLevel(stored, held);
  return { level, go: chaptersFor(all, level, held)[0]?.slug };
}

/** What the rail and the drawer show: a level's chapters in reading order, and the current one's slug. */
export interface ChapterLists {
  chapters: readonly ChapterEntry[];
  current: string | null;
}

/** Loads a script of its own (an IIFE). */
const load = (src: string) => document.head.append(Object.assign(document.createElement("script"), { src }));

/** Shows `chapters` in the rail and the drawer (chapter-lists-view.ts). */
const showChapters = (chapters: readonly ChapterEntry[], current: string | null) =>
  dispatchEvent(new CustomEvent<ChapterLists>(SHOW_CHAPTERS, { detail: { chapters, current } }));

/** The chapter list this tab fetched less than 15 minutes ago (as the chapter-list store keeps it), if any. */
function cachedChapters(): ChapterEntry[] | null {
  try {
    const cached = JSON.parse(read(CHAPTER_LIST_KEY, sessionStorage) || "{}") as { at?: number; chapters?: ChapterEntry[] };
    return cached.at! > Date.now() - CHAPTER_LIST_TTL_MS ? cached.chapters! : null;
  } catch {
    return null;
  }
}

/**
 * Whether this browser may hold a reader session, from what it has without asking (issue 20): the
 * readable "signed in" cookie the server sets and clears with the session cookie, or a stored
 * signed-in state (a session older than that cookie, or one that ended while the page was away).
 * Only then is the server asked; an anonymous reader's pages ask it nothing.
 */
export const mayHoldSession = (cookies: string, stored: string | null): boolean =>
  // SIGNED_IN_COOKIE, spelled out (page.test.ts checks the two agree), plain or __Host- prefixed.
  /sb_signed_in=1/.test(cookies) || /"isAuthenticated":true/.test(stored ?? "");

/**
 * What this browser keeps for the member signed in, beside the notebook key's database
 * (src/lib/notebook/device-keys.ts MEMBER_STORAGE_KEYS, spelled out: page.test.ts checks the two agree).
 */
export const MEMBER_KEYS = [NOTEBOOK_PENDING_KEY, NOTEBOOK_SEEN_KEY, NOTEBOOK_REFUSED_KEY];

/**
 * The session this browser held has ended, however it ended (signed out elsewhere, expired, the
 * code deactivated or past its date, its password reset, a sign-in beyond its cap): the notebook
 * key and everything kept for the member goes, on the first page that learns it (issue 42: 2).
 */
function forgetMember(): void {
  for (const key of MEMBER_KEYS) write(key, null);
  try {
    indexedDB.deleteDatabase(NOTEBOOK_KEYS_DATABASE);
  } catch {
    // no IndexedDB: nothing was kept there
  }
}

/** Runs `work` once the next frame is drawn: out of the way of what the reader sees answered now. */
const afterFrame = (work: () => void) => requestAnimationFrame(() => setTimeout(work));

/**
 * Runs `work` once the page has loaded and the browser is idle (the next frame where it cannot
 * say): after the first paint, which then waits for nothing `work` fetches (issue 33: 2; the load
 * event alone came before the first paint once the page fetched nothing else). The page may have
 * loaded before this script came (it comes after the first paint: decision 0032).
 */
const afterLoad = (work: () => void) => {
  const idle = () => ("requestIdleCallback" in window ? requestIdleCallback(() => work(), { timeout: 2000 }) : afterFrame(work));
  if (document.readyState == "complete") idle();
  else addEventListener("load", idle, { once: true });
};

/**
 * Opens the chapter drawer so that the frame answering the tap only shows it (issue 33: 3): a
 * modal dialog makes the rest of the page inert, and Chromium applies that by styling every
 * element of the page again (a trace of the first tap on a phone: all 155 elements, reason
 * "Dialog", over half the tap's work at 4x CPU). So the drawer, styled and laid out while closed
 * (global.css), is shown first, not modal, dimming the page as its backdrop will; it is made modal
 * once it has slid in, where that work stands in the way of nothing. Until then a press outside
 * it or Escape closes it, as the modal one's backdrop and Escape would, and the press reaches
 * nothing behind it; a Tab makes it modal at once. Making it modal keeps the focus where the reader
 * has put it meanwhile.
 */
function openAtOnce(dialog: HTMLDialogElement): void {
  dialog.show();
  const dismiss = (event: Event) => {
    // Tab: modal now, so that the focus moves on inside the drawer, never out of it behind.
    if ((event as KeyboardEvent).key === "Tab") return modal();
    const dismisses = event.type === "click" ? !dialog.contains(event.target as Node) : (event as KeyboardEvent).key === "Escape";
    if (!dismisses) return;
    event.preventDefault();
    event.stopPropagation();
    dialog.close();
  };
  const modal = () => {
    for (const type of ["click", "keydown"]) removeEventListener(type, dismiss, true);
    // (Not if it was closed meanwhile, or another script made it modal.)
    if (!dialog.hasAttribute("open") || dialog.matches(":modal")) return;
    const focused = document.activeElement as HTMLElement | null;
    // Closing hands the focus back to the opener, which the modal one then records as the place to return it to.
    dialog.close();
    dialog.showModal();
    if (focused && dialog.contains(focused)) focused.focus({ preventScroll: true });
  };
  for (const type of ["click", "keydown"]) addEventListener(type, dismiss, true);
  // Once its slide has ended (or was cut short), in the frame after the tap's.
  requestAnimationFrame(() => Promise.all(dialog.getAnimations().map((slide) => slide.finished)).then(modal, modal));
}

/** Browser storage, which may be unavailable (private modes): then it reads null and keeps nothing. */
function read(key: string, storage = localStorage): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null, storage = localStorage): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // this page only
  }
}

/** A GET as the spec's queries make it (same-origin: the cookies go along), tried once more after 1 s. */
function get<T>(url: string, again = true): Promise<T> {
  return fetch(url)
    .then((response) => (response.ok ? (response.json() as Promise<T>) : Promise.reject(response.status)))
    .catch((error: unknown) => (again ? new Promise((wait) => setTimeout(wait, 1000)).then(() => get<T>(url, false)) : Promise.reject(error as Error)));
}

/** Runs the page script once: Base.astro's <script>. */
export function startPage(): void {
  const root = document.documentElement;
  const onScroll: Array<() => void> = [];

  // Theme: the head script applied the stored one before first paint; the switch's name follows by CSS.
  document.getElementById("theme-toggle")?.addEventListener("click", () => setTheme(currentTheme() === "dark" ? "light" : "dark"));

  // The session: the server's answer is stored, for the header and the auth store to follow; a
  // browser that holds no sign-in is signed out without asking. The admin's tier preview
  // (src/server/pages/preview-page.ts) names the tier instead, stored nowhere.
  const preview = root.dataset.previewTier;
  type Answer = { authenticated?: boolean; level?: unknown; noteChapters?: string[]; unreadMessages?: number };
  const asked = !preview && mayHoldSession(document.cookie, read(AUTH_KEY));
  const answer: Promise<Answer> = preview
    ? Promise.resolve({ authenticated: rank(preview) > 0, level: preview })
    : asked
      ? get<Answer>("/api/auth/session")
      : Promise.resolve({});
  const session = answer
    .then(({ authenticated, level, noteChapters, unreadMessages }) => {
      const held = authenticated && rank(level) >= 0 ? (level as Level) : null;
      // A sign-in this browser held is over: nothing of its member stays.
      if (asked && !held) forgetMember();
      if (!preview) write(AUTH_KEY, held && JSON.stringify({ isAuthenticated: true, accessLevel: held }));
      if (held) root.setAttribute("data-auth", "in");
      else root.removeAttribute("data-auth");
      // The chapters holding the member's notes, for the personal script (src/scripts/personal.ts).
      root.dataset.notes = `${noteChapters}`;
      // The operator's replies not yet read (issue 43): the header's mark, and the profile's.
      for (const mark of document.querySelectorAll("[data-unread]")) mark.textContent = unreadMessages ? `${unreadMessages}` : "";
      return held;
    })
    // Offline or server trouble: the stored state stands (the server guards every request
    // anyway), and nothing is decided on it here.
    .catch(() => undefined)
    .finally(() => {
      root.setAttribute(SESSION_CHECKED, "");
      dispatchEvent(new Event(SESSION_CHECKED));
    });

  // The islands' files, fetched into the cache without running, when the reader first touches the
  // page or presses a key (src/directives/integration.ts): a reader who only reads the first screen
  // never downloads them (issue 20: 2), and one who reaches for the menu has them on the way. Their
  // 14 links cost a phone tens of milliseconds to add, so they come once what the touch or key
  // does is drawn (a press: once its click is), never in the way of the tap (issue 33: 3).
  const prefetch = () => {
    // (Once: the template is empty after its first use.)
    const files = document.getElementById(ISLAND_FILES_ID) as HTMLTemplateElement | null;
    if (files) document.head.append(files.content);
    later();
    reach();
  };
  // The reader reaches for the chapter lists: a touch or a key anywhere (above: a Tab to the rail
  // is a key), or the pointer on the rail or the menu. Only then does an anonymous reader's page
  // fetch the whole list (startReading): one who only reads never downloads it (issue 45: 1).
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  for (const control of document.querySelectorAll('.rail, [aria-controls="chapter-drawer"]')) control.addEventListener("pointerover", reach, { once: true });
  // After a key, or a press's click (bubbling here once the page has answered it) or its cancel (a scroll).
  for (const type of ["keydown", "click", "pointercancel"]) addEventListener(type, () => afterFrame(prefetch), { capture: true, once: true });

  // The full stylesheet and the book's face, which the first paint owes nothing to (issue 33: 2):
  // the page carries the CSS its elements use inline (src/build/critical-css.ts), and a browser
  // that has not loaded the face yet paints in its metric-matched fallback (the early script's
  // mark, src/layouts/early-script.ts). Both come when the page has loaded and the browser is
  // idle; a reader who touches the page or presses a key first gets them once that is answered
  // and drawn (with the islands' files, above), so they never stand in the way of a tap (issue 33: 3).
  let touched = false;
  for (const type of ["pointerdown", "keydown"]) addEventListener(type, () => (touched = true), { capture: true, once: true, passive: true });
  // (A press that ends in neither a click nor a cancel still gets them, a moment later.)
  afterLoad(() => (touched ? setTimeout(later, 1500) : later()));
  // The face is loaded for the next page, once the sheet is in (whose own @font-face rules the next
  // page's are), and never used on this one (issue 44: 1): the fallback matches the face's metrics
  // on average, not word by word, and setting a painted page in the face moved words between lines
  // under the reader's eyes ("Every person runs on an operating system" lost "system" at 390 px).
  // The next page paints in the face from the browser's cache (font-display: optional, fonts.css).
  let fetching = false;
  const later = () => {
    // (Once: whichever of the load, a press or a key comes first.)
    if (fetching) return;
    fetching = true;
    const sheet = document.getElementById(FULL_SHEET_ID) as HTMLTemplateElement | null;
    const links = [...(sheet?.content.querySelectorAll("link") ?? [])];
    const sheetIn = Promise.allSettled(links.map((link) => new Promise((done) => (link.onload = link.onerror = done))));
    if (sheet) document.head.append(sheet.content);
    void sheetIn.then(() => {
      root.dataset.sheet = "in";
      dispatchEvent(new Event(SHEET_IN));
    });
    if (!root.dataset.face) return;
    // (Once the sheet's rules are drawn, so its faces are the ones loaded; the core file only: a
    // character every page sets, which it holds.)
    void sheetIn
      .then(() => new Promise((drawn) => afterFrame(() => drawn(0))))
      .then(() => document.fonts.load(`1em "${BOOK_FACE}"`, "a"))
      .then((faces) => faces.length > 0 && write(FACE_KEY, "1"))
      .catch(() => undefined)
      .finally(() => (root.dataset.face = FACE_NEXT));
  };

  // The navigator's lists (issue 45: 1), from this script (a chapter page's) or the Navigator
  // island once it is up: the last one sent is kept, for the script that shows them, loaded the
  // first time. (A page other than a chapter's shows its drawer's list once the island is up.)
  const lists = root as HTMLElement & { chapterLists?: ChapterLists };
  addEventListener(SHOW_CHAPTERS, (event) => {
    if (!lists.chapterLists) load(listsScript);
    lists.chapterLists = (event as CustomEvent<ChapterLists>).detail;
  });

  // A notice the previous page left: the Toasts island shows it (src/lib/notify.ts).
  if (read(PENDING_NOTICE_KEY, sessionStorage)) dispatchEvent(new Event(WAKE_TOASTS));

  // The menu (the header's button, in the Navigator island). Before the island is up, a tap opens
  // the drawer at once, which wakes the island, which adopts it (marked answered, so the
  // directive does not replay it); once it is up, the island answers the tap itself.
  const drawer = document.getElementById("chapter-drawer") as HTMLDialogElement | null;
  // Styled and laid out while still closed (hidden: global.css), after the first frame (this
  // script comes once it is presented: decision 0032), so the tap that opens it only shows it
  // (issue 33: 3).
  if (drawer) root.setAttribute("data-drawer-ready", "");
  const asleep = () => drawer?.closest("astro-island")?.hasAttribute("ssr");
  const expanded = (open: boolean) => {
    for (const control of document.querySelectorAll('[aria-controls="chapter-drawer"]')) control.ariaExpanded = `${open}`;
  };
  // However it closes (Escape, a press outside it, a jump from "On this page"), the menu says so.
  drawer?.addEventListener("close", () => drawer.open || expanded(false));
  document.addEventListener(
    "click",
    (event) => {
      const target = event.target as Element;
      // A click on a light-dismiss dialog's backdrop lands on the dialog (for browsers without closedby).
      if (target.matches?.('dialog[closedby="any"]')) (target as HTMLDialogElement).close();
      // A jump from the drawer's "On this page" list: the drawer closes, and the page moves there.
      if (target.closest?.(".toc-link")) drawer?.close();
      // A control that wakes an island elsewhere on the page (a subsection's Note: issue 32).
      const waking = target.closest?.<HTMLElement>("[data-wake]");
      if (waking) dispatchEvent(new Event(waking.dataset.wake!));
      if (drawer && target.closest?.('[aria-controls="chapter-drawer"]') && asleep()) {
        event.preventDefault();
        // The focus the drawer moves into the island wakes it, which loads once this frame is
        // drawn (src/directives/interaction.ts; issue 33: 3).
        openAtOnce(drawer);
        expanded(true);
      }
    },
    true,
  );
  // A Note opened before this script came (decision 0032) woke nothing: what is typed in it is kept
  // only once the Notebook island is up (issue 32), so it wakes now.
  const opened = document.querySelector<HTMLElement>("[open]>[data-wake]");
  if (opened) dispatchEvent(new Event(opened.dataset.wake!));

  // The meeting request on /in-person (src/components/MeetingRequestDialog.astro) is only logged
  // and cleared (SPEC.md section 4): its method="dialog" form closes the modal itself.
  document.addEventListener("submit", ({ target: form }) => {
    if ((form as HTMLFormElement).id !== "meeting-request-form") return;
    console.log("Private meeting request:", Object.fromEntries(new FormData(form as HTMLFormElement)));
    (form as HTMLFormElement).reset();
  });

  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    if (event.key === "F8") {
      event.preventDefault();
      document.getElementById("notifications")?.focus();
    }
    // Previous and Next: the only links with these rels (src/lib/chapter-body.ts).
    const link = document.querySelector<HTMLElement>(`a[rel=${STEPS[event.key]}]`);
    if (!link || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || document.querySelector("dialog[open]")) return;
    // Never while typing in a text field.
    if (target.isContentEditable || target.matches("input,textarea,select")) return;
    event.preventDefault();
    link.click();
  });

  const progress = document.getElementById("reading-progress");
  if (progress) {
    const update = () => {
      const percent = scrollPercent(scrollY, root.scrollHeight, innerHeight);
      progress.setAttribute("aria-valuenow", `${percent}`);
      // The `scale` property, which the bar's scale-x-0 class sets: a transform would be multiplied by it.
      (progress.firstElementChild as HTMLElement).style.scale = `${percent / 100} 1`;
    };
    update();
    onScroll.push(update);
    addEventListener("resize", update);
  }

  const rail = document.querySelector<HTMLElement>(".rail");
  if (rail) {
    let state: RailScrollState = { visible: true, lastY: scrollY, lastAt: performance.now() };
    rail.dataset.visible = "true";
    onScroll.push(() => {
      state = nextRailState(state, scrollY, performance.now());
      rail.dataset.visible = `${state.visible}`;
    });
  }

  const article = document.querySelector<HTMLElement>("[data-chapter-slug]");
  if (article) onScroll.push(startReading(article, session, reached, preview));

  // (No passive flag: a scroll event cannot be cancelled, so it never holds the scrolling up.)
  let frame = 0;
  addEventListener("scroll", () => {
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      for (const run of onScroll) run();
    });
  });
}

/** A chapter page: the chapter marked, the list check, heartbeats, continue reading. Answers its work on scroll. */
function startReading(article: HTMLElement, session: Promise<Level | null | undefined>, reached: Promise<void>, preview?: string): () => void {
  const slug = article.dataset.chapterSlug!;
  const level = levelOf(article.dataset.chapterLevel);

  // The live chapter list, cached 15 minutes as the chapter-list store keeps it (which then finds
  // it there), to check the reader's place (SPEC.md section 4: a redirect or a level switch) and
  // to list their level in the rail and the drawer. A member's page asks for it once the page has
  // loaded and is idle (the first paint waits for nothing it fetches: issue 20: 3). An anonymous
  // reader's page (an open chapter, served live: purged at every change) asks only once the reader
  // reaches for the lists (issue 45: 1); until then they hold the chapters near this one.
  const loaded = new Promise<void>((idle) => afterLoad(idle));
  const cached = cachedChapters();
  const list: Promise<ChapterEntry[] | null> = cached
    ? Promise.resolve(cached)
    : session.then((held) =>
        (held && !preview ? loaded : reached)
          .then(() => get<ChapterEntry[]>("/api/chapters"))
          .then(
            (chapters) => (write(CHAPTER_LIST_KEY, JSON.stringify({ at: Date.now(), chapters }), sessionStorage), chapters),
            () => null,
          ),
      );
  void Promise.all([session, list]).then(([held, chapters]) => {
    if (held === undefined) return;
    // A preview shows its chapter whatever the lists hold (a draft is in none).
    const move: { level: Level; go?: string } = preview || !chapters ? { level } : readerMove(slug, chapters, read(SELECTED_LEVEL_KEY), held);
    if (move.go) return location.replace(`/${move.go}`);
    write(SELECTED_LEVEL_KEY, move.level);
    if (chapters) showChapters(chaptersFor(chapters, move.level, held), slug);
  });

  // Continue reading (beyond the spec): per level, the chapter last read and the subsection being
  // read, so a reader who comes back to that chapter is offered a jump to where they were.
  type Place = { slug: string; section?: string; sectionTitle?: string };
  const places = (): Partial<Record<Level, Place>> => {
    try {
      return JSON.parse(read(READER_PLACE_KEY)!) || {};
    } catch {
      return {};
    }
  };
  const remember = (place: Place) => write(READER_PLACE_KEY, JSON.stringify({ ...places(), [level]: place }));
  const remembered = places()[level];
  const offer = document.querySelector<HTMLElement>("[data-continue]")!;
  let last = remembered?.slug === slug ? remembered.section : undefined;
  // "On this page" (beside the text, and in the drawer) marks the subsection being read.
  const sections = [...article.querySelectorAll<HTMLElement>("[data-subsection]")];
  const readingNow = () => sections.filter((s) => s.getBoundingClientRect().top < innerHeight * 0.4).pop();
  // The offer's "Continue reading" is a link to the subsection; either choice puts the offer away.
  // Never on that subsection itself (issue 42: 3): a reader already there is not sent to it.
  if (last && document.getElementById(last) && !location.hash && scrollY < 100 && readingNow()?.id !== last) {
    offer.querySelector("strong")!.textContent = remembered!.sectionTitle!;
    offer.querySelector("a")!.href = `#${last}`;
    offer.hidden = false;
    offer.addEventListener("click", (event) => (event.target as Element).closest("a,button") && (offer.hidden = true));
  } else if (remembered?.slug !== slug) {
    remember({ slug });
  }
  let marked: string | undefined;
  const mark = () => {
    const reading = readingNow();
    if (reading?.id !== marked) {
      marked = reading?.id;
      for (const link of document.querySelectorAll(".toc-link")) link.ariaCurrent = link.getAttribute("href") === `#${marked}` ? "location" : null;
    }
    return reading;
  };
  mark();

  // A reader with something of their own here (a member's reading and notebook, notes kept in
  // this browser on this chapter) gets the personal script, a file of its own fetched only then
  // (src/scripts/personal.ts): an anonymous reader's page carries none of it (issue 32).
  void session.then((held) => {
    if (!preview && (held || `${read(NOTEBOOK_LOCAL_KEY)}${read(NOTEBOOK_PENDING_KEY)}`.includes(`"${slug}":`)))
      load(personalScript);
  });

  return () => {
    const reading = mark();
    if (!reading || reading.id === last) return;
    last = reading.id;
    offer.hidden = true;
    remember({ slug, section: reading.id, sectionTitle: reading.dataset.subsection });
  };
}
