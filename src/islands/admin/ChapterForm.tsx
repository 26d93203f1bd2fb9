/**
 * The Create New Chapter and Edit Chapter dialogs' form (SPEC.md section 5): slug (generated from
 * the title while creating, until edited by hand), title, level, reading time, order, content.
 * Validated with the schema the server uses; a non-numeric number becomes 0.
 */
import { useRef, useState, type SubmitEvent } from "react";
import { chapterInput, toWholeNumber } from "../../lib/content-schemas.ts";
import { levelOf, type Level } from "../../lib/levels.ts";
import { slugify } from "../../lib/slug.ts";
import type { AdminChapter } from "../../stores/admin-api.ts";
import { createChapter, updateChapter } from "../../stores/admin-content.ts";
import Field from "./Field.tsx";
import LevelSelect from "./LevelSelect.tsx";
import { useFieldErrors } from "./form-errors.ts";
import { input, primary, secondary } from "./ui.ts";

export const CHAPTER_DEFAULTS = { readingTime: 5, order: 0, level: "Operator" as Level };

interface Props {
  chapter?: AdminChapter;
  level?: Level;
  onDone: () => void;
}

export default function ChapterForm({ chapter, level, onDone }: Props) {
  const form = useRef<HTMLFormElement>(null);
  const [title, setTitle] = useState(chapter?.title ?? "");
  const [slug, setSlug] = useState(chapter?.slug ?? "");
  const [slugEdited, setSlugEdited] = useState(chapter !== undefined);
  const [chapterLevel, setChapterLevel] = useState<Level>(chapter ? levelOf(chapter.level) : (level ?? CHAPTER_DEFAULTS.level));
  const [readingTime, setReadingTime] = useState(String(chapter?.readingTime ?? CHAPTER_DEFAULTS.readingTime));
  const [order, setOrder] = useState(String(chapter?.order ?? CHAPTER_DEFAULTS.order));
  const [content, setContent] = useState(chapter?.content ?? "");
  const [pending, setPending] = useState(false);
  const values = { slug, title, content, readingTime: toWholeNumber(readingTime), order: toWholeNumber(order), level: chapterLevel };
  const { errors, validate } = useFieldErrors(chapterInput, values, form);

  const onTitle = (value: string) => {
    setTitle(value);
    if (!slugEdited) setSlug(slugify(value));
  };

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    const data = validate();
    if (!data) return;
    setPending(true);
    const ok = chapter ? await updateChapter(chapter.id, data) : await createChapter(data);
    setPending(false);
    if (ok) onDone();
  }

  return (
    <form ref={form} onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
      <Field label="Title" error={errors.title}>
        <input className={input} value={title} onChange={(e) => onTitle(e.target.value)} data-autofocus />
      </Field>
      <Field label="Slug" hint={chapter ? "The chapter's address: /{slug}" : "Made from the title until you edit it."} error={errors.slug}>
        <input
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
      <Field label="Content" hint="## and ### headings, > quotes, - list items, **bold**; blank lines between paragraphs." error={errors.content}>
        <textarea className={`${input} min-h-48 font-mono text-sm`} rows={10} value={content} onChange={(e) => setContent(e.target.value)} />
      </Field>
      <div className="flex justify-end gap-3 pt-2">
        <button type="button" className={secondary} onClick={onDone} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className={primary} disabled={pending}>
          {pending ? "Saving..." : chapter ? "Save Changes" : "Create Chapter"}
        </button>
      </div>
    </form>
  );
}
