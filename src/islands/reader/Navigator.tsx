/**
 * The chapter navigator (SPEC.md sections 2, 4 and 9): the header's menu toggle (the page's one
 * menu control), the 64 px rail of numbered chapters below the header (reader pages only) and the
 * 320 px drawer with the chapter list, the chapter's "On this page" list (below 1280 px; beside
 * the text above that), the level switch and the footer links.
 *
 * Server-rendered with the build's chapter list, so the rail and its links work before any
 * script runs. It reads the current chapter from the `$currentChapter` store (set from the
 * page's `data-chapter-slug`, or by a reader that loads its chapter at run time), never from
 * how the chapter got onto the page.
 *
 * It hydrates when the reader first points at it, touches it or tabs into it (client:interaction),
 * or when the rail must show another list than the built one. The page script
 * (src/scripts/page.ts) marks the current chapter and hides and shows the rail for good, and opens
 * the drawer on a tap that lands before this island is up; the island adopts that drawer.
 */
import { useStore } from "@nanostores/react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type MouseEvent, type PointerEvent } from "react";
import { canAccess, LEVELS, type Level } from "../../lib/levels.ts";
import { SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH } from "../../lib/search-query.ts";
import { FOOTER_LINKS } from "./links.ts";
import { $auth } from "../../stores/auth.ts";
import { teasersFor } from "../../lib/level-chapters.ts";
import LevelTeasers from "./LevelTeasers.tsx";
import { $chapterList, $currentChapter, $levelChapters, startReader } from "../../stores/reader-chapters.ts";
import { $selectedLevel, selectLevel } from "../../stores/selected-level.ts";
import { CloseIcon, LockIcon, MenuIcon } from "./icons.tsx";
import { DRAWER_LIST_ID, DRAWER_TOC_ID, ON_THIS_PAGE_SHELL, RAIL_LIST_ID, SHOW_CHAPTERS } from "../../lib/page-signals.ts";
import { createTooltipTimer } from "./tooltip-timer.ts";

/** The description a locked level's button carries. */
const LEVEL_LOCK_NOTE = "level-lock-note";

export const DRAWER_NAVIGATION_DELAY_MS = 300;
export const DRAWER_LIST_SCROLL_DELAY_MS = 100;

/** The search box's results and sources: loaded when the box is first used (README: Search). */
const loadSearch = () => import("./search/SearchResults.tsx");
/** Without a network the results code cannot load: the box says so instead of breaking the drawer. */
const SearchResults = lazy(() =>
  loadSearch().catch(() => ({
    default: () => (
      <p role="status" className="px-5 py-3 text-sm text-[var(--color-muted)]">
        Search could not load. Check your connection and try again.
      </p>
    ),
  })),
);

interface Props {
  /** Show the side rail (reader pages). */
  rail?: boolean;
}

/**
 * The chapter's "On this page" items: filled into the page by the chapter page function, kept as
 * they are (React never renders them). In the chapter shell, the placeholder the function fills.
 */
function onThisPage(): string {
  if (typeof document === "undefined") return ON_THIS_PAGE_SHELL;
  return document.getElementById(DRAWER_TOC_ID)?.innerHTML ?? "";
}

/** The items the server renders the rail's and the drawer's lists with (Header.astro provides them). */
let served = { rail: "", drawer: "" };

/**
 * Server side: the items the lists are rendered with (the chapter shell's placeholders, which the
 * chapter page function fills with the chapters near the page's own; on other pages the drawer's
 * note that its list is on its way).
 */
export function provideListItems(items: { rail: string; drawer: string }): void {
  served = items;
}

/**
 * A chapter list's items as the page holds them: the island renders the list element only, and
 * never its items, which the page script puts in (page-signals.ts SHOW_CHAPTERS), so hydration
 * keeps what the page shows and React never writes them again.
 */
function listItems(id: string, which: "rail" | "drawer"): string {
  if (typeof document === "undefined") return served[which];
  return document.getElementById(id)?.innerHTML ?? "";
}

/** The rail button an event came from or went to, if any. */
const railLink = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLAnchorElement>("a.rail-link") : null);

/** Whether the page script opened the drawer before this island woke (a tap it must not lose). */
function openedEarly(): boolean {
  return typeof document !== "undefined" && document.querySelector<HTMLDialogElement>("dialog#chapter-drawer")?.open === true;
}

export default function Navigator({ rail = false }: Props) {
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(openedEarly);
  const levelChapters = useStore($levelChapters);
  const chapterList = useStore($chapterList);
  const allChapters = chapterList.chapters;
  /** A locked level whose teasers the drawer shows in place of the list (its lock was chosen). */
  const [teased, setTeased] = useState<Level | null>(null);
  const storeCurrent = useStore($currentChapter);
  const selected = useStore($selectedLevel);
  const auth = useStore($auth);
  const dialog = useRef<HTMLDialogElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  /** Whether the drawer effect has run: its first run adopts what the page script did meanwhile. */
  const settled = useRef(false);
  const searchBox = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState("");
  const [toc] = useState(onThisPage);
  const [railHtml] = useState(() => listItems(RAIL_LIST_ID, "rail"));
  const [drawerHtml] = useState(() => listItems(DRAWER_LIST_ID, "drawer"));
  /** The rail button whose title shows beside it, and where (its middle, from the top of the screen). */
  const [tip, setTip] = useState<{ title: string; top: number } | null>(null);
  const tips = useMemo(
    () =>
      createTooltipTimer<HTMLAnchorElement>(
        (link) => {
          const box = link.getBoundingClientRect();
          setTip({ title: link.dataset.title ?? "", top: box.top + box.height / 2 });
        },
        () => setTip(null),
      ),
    [],
  );

  // Before mounting, render exactly what the server rendered: Operator selected, nobody signed in.
  const level: Level = mounted ? selected : "Operator";
  const held = mounted && auth.isAuthenticated ? auth.accessLevel : null;

  // The lists' items: the page script shows the selected level's chapters, once the list is known
  // (a list that failed to load leaves what the page shows).
  useEffect(() => {
    if (mounted && (chapterList.status === "ready" || allChapters.length > 0)) dispatchEvent(new CustomEvent(SHOW_CHAPTERS, { detail: { chapters: levelChapters, current: storeCurrent } }));
  }, [mounted, chapterList.status, allChapters.length, levelChapters, storeCurrent]);

  useEffect(() => {
    setMounted(true);
    // Words typed into the box before this island woke are kept (the box is uncontrolled).
    if (searchBox.current?.value) setQuery(searchBox.current.value);
    void startReader();
    // Woken by pointing at (or tabbing to) a rail button: its tooltip is due from now on.
    const pointed = document.querySelector<HTMLAnchorElement>(".rail-link:hover, .rail-link:focus-visible");
    if (pointed) tips.enter(pointed);
  }, [tips]);

  // A tooltip goes when its button moves away (the rail hides on scrolling) and on Escape.
  useEffect(() => {
    if (!rail) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape") tips.leave();
    };
    window.addEventListener("scroll", tips.leave, { passive: true });
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("scroll", tips.leave);
      window.removeEventListener("keydown", onKey);
    };
  }, [rail, tips]);

  // Drawer: a modal dialog (global.css locks the page's scroll while it is open); focus back to
  // its opener on close (one the page script opened gets it back from the browser).
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // The menu says whether it is open (one the page script opened and the browser closed before
    // now says so here).
    const expanded = (value: boolean) => {
      for (const control of document.querySelectorAll('[aria-controls="chapter-drawer"]')) control.setAttribute("aria-expanded", `${value}`);
    };
    // The drawer may have opened or closed while this island was hydrating, after its first render
    // read it and before this commit (a tap on the menu, through the page script; Escape): the
    // drawer as it is now wins, never the state read then.
    const adopt = !settled.current && open !== element.open;
    settled.current = true;
    if (adopt) return setOpen(element.open);
    expanded(open);
    if (!open) {
      if (element.open) element.close();
      return;
    }
    if (!element.open) element.showModal();
    const timer = window.setTimeout(() => {
      if (list.current) list.current.scrollTop = 0;
    }, DRAWER_LIST_SCROLL_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      expanded(false);
      // Without scrolling: a jump to a subsection from "On this page" has just moved the page.
      opener.current?.focus({ preventScroll: true });
    };
  }, [open]);

  // (The menu's invoker command opens the drawer before this island and the page script are up;
  // here the state does: the browser's own opening is cancelled.)
  const openDrawer = (event: MouseEvent<HTMLElement>) => {
    event.preventDefault();
    opener.current = event.currentTarget;
    tips.leave();
    setOpen(true);
  };
  // A tooltip follows a mouse or pen, and keyboard focus; a finger on a phone just follows the link.
  const tipEnter = (event: PointerEvent | FocusEvent, link: HTMLAnchorElement) => {
    if ("pointerType" in event && event.pointerType === "touch") return;
    tips.enter(link);
  };
  const tipLeave = () => tips.leave();

  // A chapter that is not in the newly chosen level's list gives way to the list's first chapter
  // (SPEC.md section 4). (On opening, the page script made the same check.)
  const chooseLevel = (option: Level) => {
    // A locked level with teasers shows what it holds, with the way in; without any, the spec's
    // redirect to /resume.
    if (!canAccess(held, option) && teasersFor(allChapters, option).length > 0) {
      setTeased(teased === option ? null : option);
      return;
    }
    setTeased(null);
    if (!selectLevel(option)) return;
    const chapters = $levelChapters.get();
    const here = $currentChapter.get();
    if (here && chapters[0] && !chapters.some((c) => c.slug === here)) window.location.replace(`/${chapters[0].slug}`);
  };

  const go = (event: MouseEvent, url: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    setOpen(false);
    window.setTimeout(() => window.location.assign(url), DRAWER_NAVIGATION_DELAY_MS);
  };
  const searching = query.trim().length >= SEARCH_MIN_LENGTH;

  // Tab stays inside the drawer.
  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>("a[href], button, input")].filter(
      (el) => el.getClientRects().length > 0,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  // The page's one menu control, first in the sticky header on every page (Header.astro), above
  // the rail's buttons where there is a rail.
  return (
    <>
      <button
        type="button"
        className="site-header-icon"
        aria-label="Open the chapter list"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls="chapter-drawer"
        // A tap before the page script has come (decision 0032) opens it all the same, the browser's way.
        commandfor="chapter-drawer"
        command="show-modal"
        onClick={openDrawer}
        data-testid="menu-toggle"
      >
        <MenuIcon />
      </button>

      {/* Hidden on scrolling down by the page script (data-visible), never while the drawer is open (global.css). */}
      {rail && (
        <nav
          aria-label="Chapter rail"
          data-testid="rail"
          className="rail fixed top-14 bottom-0 left-0 z-30 hidden w-[var(--width-rail)] flex-col items-center gap-1 border-r border-[var(--color-line)] bg-[var(--color-panel)] py-3 sm:flex"
        >
          <ol
            id={RAIL_LIST_ID}
            className="flex flex-col items-center gap-1 overflow-y-auto"
            dangerouslySetInnerHTML={{ __html: railHtml }}
            // Each button's title beside it (the tooltip), by delegation: the items are the page script's.
            onPointerOver={(event) => {
              const to = railLink(event.target);
              if (to && railLink(event.relatedTarget) !== to) tipEnter(event, to);
            }}
            onPointerOut={(event) => {
              const from = railLink(event.target);
              if (from && railLink(event.relatedTarget) !== from) tipLeave();
            }}
            onFocus={(event) => {
              const to = railLink(event.target);
              if (to) tipEnter(event, to);
            }}
            onBlur={tipLeave}
          />
          {tip && (
            <div role="tooltip" className="rail-tooltip" style={{ top: tip.top }}>
              {tip.title}
            </div>
          )}
        </nav>
      )}

      <dialog
        ref={dialog}
        id="chapter-drawer"
        className="drawer"
        aria-labelledby="chapter-drawer-title"
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
        // Closed by the page (a jump from "On this page"): the state follows. (Not when it is open
        // again by now: the page script closes a drawer it showed to make it modal, openAtOnce.)
        onClose={() => {
          if (!dialog.current?.open) setOpen(false);
        }}
        onClick={(event) => {
          if (event.target === dialog.current) setOpen(false);
        }}
        onKeyDown={trapFocus}
      >
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between border-b border-[var(--color-line)] px-5 py-4">
            <h2 id="chapter-drawer-title" className="text-sm font-semibold tracking-widest uppercase">
              Chapters
            </h2>
            <button
              type="button"
              className="rounded-sm p-2 hover:bg-[var(--color-line)]"
              aria-label="Close the chapter list"
              commandfor="chapter-drawer"
              command="close"
              onClick={(event) => {
                event.preventDefault();
                setOpen(false);
              }}
            >
              <CloseIcon />
            </button>
          </div>

          <p id={LEVEL_LOCK_NOTE} hidden>
            Locked: this level opens with an access code for it.
          </p>
          <div role="group" aria-label="Level" className="grid grid-cols-3 gap-1 border-b border-[var(--color-line)] p-3">
            {LEVELS.map((option) => {
              const locked = !canAccess(held, option);
              return (
                <button
                  key={option}
                  type="button"
                  aria-pressed={option === level}
                  aria-expanded={locked && teasersFor(allChapters, option).length > 0 ? teased === option : undefined}
                  aria-controls={locked && teasersFor(allChapters, option).length > 0 ? "level-teasers" : undefined}
                  // Locked, not disabled (issue 22: 10): shown with its lock (SPEC.md section 6), it
                  // acts, showing the level's teasers or going to /resume (section 4), and says why.
                  aria-describedby={locked ? LEVEL_LOCK_NOTE : undefined}
                  data-locked={locked || undefined}
                  title={locked ? `${option} requires access` : undefined}
                  onClick={() => chooseLevel(option)}
                  className={`flex min-w-0 items-center justify-center gap-1 rounded-sm px-1 py-2 text-xs font-medium ${
                    option === level
                      ? "bg-[var(--color-accent)] text-[var(--color-accent-ink)]"
                      : locked
                        ? "text-[var(--color-muted)] opacity-80"
                        : "hover:bg-[var(--color-line)]"
                  }`}
                >
                  {locked && <LockIcon />}
                  {option}
                </button>
              );
            })}
          </div>

          <div role="search" className="border-b border-[var(--color-line)] px-3 py-3">
            <input
              ref={searchBox}
              type="search"
              aria-label="Search the book"
              placeholder="Search the book"
              maxLength={SEARCH_MAX_LENGTH}
              autoComplete="off"
              spellCheck={false}
              onFocus={() => void loadSearch().catch(() => undefined)}
              onInput={(event) => setQuery(event.currentTarget.value)}
              className="w-full rounded-sm border border-[var(--color-line)] bg-transparent px-3 py-2 text-sm"
              data-testid="search-box"
            />
          </div>

          {teased && !searching && (
            <div id="level-teasers" className="flex-1 overflow-y-auto px-5 py-4">
              <LevelTeasers chapters={allChapters} held={held} level={teased} signIn />
              <button type="button" className="mt-6 text-sm underline underline-offset-4" onClick={() => setTeased(null)}>
                Back to the {level} chapters
              </button>
            </div>
          )}

          {searching && (
            <div className="flex-1 overflow-y-auto py-1" aria-label="Search results" role="region">
              <Suspense
                fallback={
                  <p role="status" className="px-5 py-3 text-sm text-[var(--color-muted)]">
                    Searching...
                  </p>
                }
              >
                <SearchResults query={query} held={held} onChoose={go} />
              </Suspense>
            </div>
          )}

          {rail && (
            <nav aria-label="On this page" className="drawer-toc max-h-[35dvh] overflow-y-auto border-b border-[var(--color-line)] px-5 py-3" hidden={searching || teased !== null}>
              <h3 className="on-this-page-title">On this page</h3>
              <ol id={DRAWER_TOC_ID} dangerouslySetInnerHTML={{ __html: toc }} />
            </nav>
          )}

          <ol
            ref={list}
            id={DRAWER_LIST_ID}
            className="flex-1 overflow-y-auto py-2"
            data-testid="drawer-list"
            hidden={searching || teased !== null}
            dangerouslySetInnerHTML={{ __html: drawerHtml }}
            onClick={(event) => {
              const link = (event.target as Element).closest<HTMLAnchorElement>("a.drawer-link");
              if (link) go(event, link.getAttribute("href")!);
            }}
          />

          <nav aria-label="Site" className="border-t border-[var(--color-line)] px-5 py-4">
            <ul className="flex flex-wrap gap-x-4 gap-y-2 text-xs text-[var(--color-muted)]">
              {FOOTER_LINKS.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className="hover:underline">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </dialog>
    </>
  );
}
