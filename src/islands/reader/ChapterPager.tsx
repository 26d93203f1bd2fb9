/**
 * The ArrowLeft/h and ArrowRight/l keys (they follow the page's Previous and Next links, which the
 * server renders within the chapter's level: src/lib/chapter-body.ts), the
 * redirect of a chapter that is not in the selected level's list, and "continue reading"
 * (SPEC.md sections 2 and 4).
 *
 * Like the Navigator, it reads the current chapter from `$currentChapter`; the chapter's level
 * comes from the page's `data-chapter-level` (a chapter with no level counts as Operator).
 */
import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { canAccess, levelOf } from "../../lib/levels.ts";
import { $auth } from "../../stores/auth.ts";
import { selectLevel } from "../../stores/selected-level.ts";
import { $chapterList, $currentChapter, $levelChapters, seedChapterList, startReader } from "../../stores/reader-chapters.ts";
import { placeFor, rememberPlace, type ReaderPlace } from "../../stores/reader-place.ts";
import { trackReading } from "../../stores/reading-activity.ts";

interface Props {
  /** The chapter on this page, for the server render. */
  current?: string;
}

/** Keys never act while focus is in a text field. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export default function ChapterPager({ current }: Props) {
  const [mounted, setMounted] = useState(false);
  const [ready, setReady] = useState(false);
  const [offer, setOffer] = useState<ReaderPlace | null>(null);
  const storeList = useStore($levelChapters);
  const storeCurrent = useStore($currentChapter);
  const listState = useStore($chapterList);

  const list = mounted ? storeList : [];
  const slug = (mounted ? storeCurrent : null) ?? current ?? null;

  useEffect(() => {
    seedChapterList();
    setMounted(true);
    void startReader().then(() => setReady(true));
  }, []);

  // A signed-in client's reading counts towards the figures on their profile.
  useEffect(() => {
    if (current) trackReading(current);
  }, [current]);

  // A chapter that is not in the selected level's list. When the page opens on it and the reader
  // may read its level (they followed a link into another level), that level becomes the selected
  // one. Otherwise (or once the reader switches level on this page) the reader goes to the list's
  // first chapter.
  const opened = useRef(false);
  useEffect(() => {
    if (!ready || !slug || listState.status === "loading") return;
    const onOpen = !opened.current;
    opened.current = true;
    if (list.some((c) => c.slug === slug)) return;
    const here = listState.chapters.find((c) => c.slug === slug);
    const auth = $auth.get();
    const level = levelOf(here?.level);
    if (onOpen && here && canAccess(auth.isAuthenticated ? auth.accessLevel : null, level)) {
      selectLevel(level);
      return;
    }
    if (list.length > 0) window.location.replace(`/${list[0]!.slug}`);
  }, [ready, slug, list, listState]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (typingIn(event.target) || document.querySelector("dialog[open]")) return;
      const rel = event.key === "ArrowLeft" || event.key === "h" ? "prev" : event.key === "ArrowRight" || event.key === "l" ? "next" : null;
      const target = rel && document.querySelector<HTMLAnchorElement>(`nav[aria-label="Chapter navigation"] a[rel="${rel}"]`);
      if (!target) return;
      event.preventDefault();
      window.location.assign(target.href);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // Continue reading: offer the remembered subsection, then keep the place up to date.
  useEffect(() => {
    if (!slug) return;
    const article = document.querySelector<HTMLElement>(`[data-chapter-slug="${CSS.escape(slug)}"]`);
    if (!article) return;
    const level = levelOf(article.dataset.chapterLevel);
    const remembered = placeFor(level);
    if (remembered?.slug === slug && remembered.section && !window.location.hash && window.scrollY < 100) {
      if (document.getElementById(remembered.section)) setOffer(remembered);
    } else if (remembered?.slug !== slug) {
      rememberPlace(level, { slug });
    }
    const sections = [...article.querySelectorAll<HTMLElement>("[data-subsection]")];
    let frame = 0;
    let last = remembered?.slug === slug ? remembered.section : undefined;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const line = window.innerHeight * 0.4;
        const reading = sections.filter((s) => s.getBoundingClientRect().top < line).pop();
        if (!reading || reading.id === last) return;
        last = reading.id;
        setOffer(null);
        rememberPlace(level, { slug, section: reading.id, sectionTitle: reading.dataset.subsection });
      });
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, [slug]);

  const jumpBack = () => {
    const target = offer?.section ? document.getElementById(offer.section) : null;
    setOffer(null);
    if (!target) return;
    target.scrollIntoView({ block: "start" });
    target.querySelector<HTMLElement>("h2")?.focus({ preventScroll: true });
  };

  return (
    offer && (
        <div
          role="region"
          aria-label="Continue reading"
          className="fixed right-4 bottom-4 z-40 max-w-sm rounded-sm border border-[var(--color-line)] bg-[var(--color-panel)] p-4 shadow-lg"
        >
          <p className="text-sm">
            You were reading <strong>{offer.sectionTitle ?? "further down"}</strong>.
          </p>
          <div className="mt-3 flex gap-2">
            <button type="button" className="cta-button !px-4 !py-2" onClick={jumpBack}>
              Continue reading
            </button>
            <button type="button" className="button-quiet" onClick={() => setOffer(null)}>
              Dismiss
            </button>
          </div>
        </div>
    )
  );
}
