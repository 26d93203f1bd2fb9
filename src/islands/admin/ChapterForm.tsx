/**
 * The Create New Chapter and Edit Chapter dialogs' form (SPEC.md section 5): slug (generated from
 * the title while creating, until edited by hand), title, level, reading time, order, content, and
 * for a locked chapter an optional teaser (issue 15).
 * Validated with the schema the server uses; a non-numeric number becomes 0.
 */
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { chapterInput, TEASER_MAX_LENGTH, toWholeNumber } from "../../lib/content-schemas.ts";
import { levelOf, type Level } from "../../lib/levels.ts";
import { slugify } from "../../lib/slug.ts";
import type { AdminChapter } from "../../stores/admin-api.ts";
import { createChapter, transformHref, updateChapter } from "../../stores/admin-content.ts";
import ContentField, { usePreviewing } from "./ContentField.tsx";
import DraftSchedule, { useDraftSaving } from "./DraftSchedule.tsx";
import DraftStatus from "./DraftStatus.tsx";
import Field from "./Field.tsx";
import PreviewLinks from "./PreviewLinks.tsx";
import RevisionHistory from "./RevisionHistory.tsx";
import LevelSelect from "./LevelSelect.tsx";
import { useFieldErrors } from "./form-errors.ts";
import { input, primary, secondary } from "./ui.ts";

export const CHAPTER_DEFAULTS = { readingTime: 5, order: 0, level: "Operator" as Level };

interface Props {
  chapter?: AdminChapter;
  level?: Level;
  onDone: () => void;
}

export default function ChapterForm({ chapter: saved, level, onDone }: Props) {
  const form = useRef<HTMLFormElement>(null);
  // A pending draft (issue 14) is what the form edits; the published text stays live meanwhile.
  const chapter = saved && { ...saved, ...saved.draft };
  const draft = useDraftSaving(saved?.publishAt);
  const previewing = usePreviewing();
  const [title, setTitle] = useState(chapter?.title ?? "");
  const [slug, setSlug] = useState(chapter?.slug ?? "");
  const [slugEdited, setSlugEdited] = useState(chapter !== undefined);
  const [chapterLevel, setChapterLevel] = useState<Level>(chapter ? levelOf(chapter.level) : (level ?? CHAPTER_DEFAULTS.level));
  const [readingTime, setReadingTime] = useState(String(chapter?.readingTime ?? CHAPTER_DEFAULTS.readingTime));
  const [order, setOrder] = useState(String(chapter?.order ?? CHAPTER_DEFAULTS.order));
  const [content, setContent] = useState(chapter?.content ?? "");
  const [teaser, setTeaser] = useState(chapter?.teaser ?? "");
  const [pending, setPending] = useState(false);
  const values = { slug, title, content, readingTime: toWholeNumber(readingTime), order: toWholeNumber(order), level: chapterLevel, teaser };
  const { errors, validate } = useFieldErrors(chapterInput, values, form);
  // The server's word that the slug is taken (409), shown beside the field until the slug changes.
  const [taken, setTaken] = useState<{ slug: string; message: string } | null>(null);
  const slugError = errors.slug ?? (taken?.slug === slug.trim() ? taken.message : undefined);
  const slugInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (taken) slugInput.current?.focus();
  }, [taken]);

  const onTitle = (value: string) => {
    setTitle(value);
    if (!slugEdited) setSlug(slugify(value));
  };

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    previewing.setPreviewing(false);
    const data = validate();
    if (!data) return;
    const options = draft.options();
    if (!options) return;
    setPending(true);
    const result = saved ? await updateChapter(saved.id, data, options) : await createChapter(data, options);
    setPending(false);
    if (result.ok) return onDone();
    if (result.slugProblem) {
      setTaken({ slug: data.slug, message: result.slugProblem });
    }
  }

  return (
    <>
    {saved && <DraftStatus kind="chapter" item={saved} chapterId={saved.id} onDone={onDone} />}
    <form ref={form} onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
      <Field label="Title" error={errors.title}>
        <input className={input} value={title} onChange={(e) => onTitle(e.target.value)} data-autofocus />
      </Field>
      <Field label="Slug" hint={`${chapter ? "" : "Made from the title until you edit it. "}The chapter's address: /${slug.trim()}`} error={slugError}>
        <input
          ref={slugInput}
          className={input}
          value={slug}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugEdited(true);
          }}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Level" error={errors.level}>
          <LevelSelect value={chapterLevel} onChange={setChapterLevel} />
        </Field>
        <Field label="Reading time (minutes)" error={errors.readingTime}>
          <input className={input} type="number" min={0} inputMode="numeric" value={readingTime} onChange={(e) => setReadingTime(e.target.value)} />
        </Field>
        <Field label="Order" error={errors.order}>
          <input className={input} type="number" min={0} inputMode="numeric" value={order} onChange={(e) => setOrder(e.target.value)} />
        </Field>
      </div>
      <ContentField
        value={content}
        onChange={setContent}
        hint="## and ### headings, > quotes, - list items, **bold**; blank lines between paragraphs."
        error={errors.content}
        rows={10}
        height="min-h-48"
        preview={{ kind: "chapter", title: title.trim(), level: chapterLevel, readingTime: toWholeNumber(readingTime), content }}
        transformHref={transformHref()}
        toggle={previewing}
      />
      {chapterLevel !== "Operator" && (
        <Field
          label="Teaser (optional)"
          hint={`Shown to readers without ${chapterLevel} access on /resume and under the level switch's lock, with the title. Write it for them: never the chapter's content. Empty: the chapter stays unlisted. ${teaser.trim().length}/${TEASER_MAX_LENGTH}`}
          error={errors.teaser}
        >
          <textarea className={`${input} text-sm`} rows={3} value={teaser} onChange={(e) => setTeaser(e.target.value)} />
        </Field>
      )}
      {saved && <PreviewLinks chapter={saved} />}
      <DraftSchedule draft={draft} />
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <button type="button" className={secondary} onClick={onDone} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className={secondary} disabled={pending} onClick={() => draft.choose(true)}>
          Save as draft
        </button>
        <button type="submit" className={primary} disabled={pending} onClick={() => draft.choose(false)}>
          {pending ? "Saving..." : chapter ? "Save Changes" : "Create Chapter"}
        </button>
      </div>
    </form>
    {saved && <RevisionHistory kind="chapter" itemId={saved.id} current={saved} chapterId={saved.id} onRestored={onDone} />}
    </>
  );
}
