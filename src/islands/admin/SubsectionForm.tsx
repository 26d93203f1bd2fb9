/**
 * The Add Subsection and Edit Subsection dialogs' form (SPEC.md section 5): title, slug
 * (optional: made from the title), content, a photo by upload or URL with a preview that hides
 * when the image fails to load, its description, and the order (a new subsection's defaults to
 * the chapter's count of subsections; a non-numeric value becomes 0).
 */
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { subsectionInput, toWholeNumber } from "../../lib/content-schemas.ts";
import type { AdminChapter, AdminSubsection } from "../../stores/admin-api.ts";
import { createSubsection, subsectionNumber, transformHref, updateSubsection } from "../../stores/admin-content.ts";
import ContentField, { usePreviewing } from "./ContentField.tsx";
import DraftSchedule, { useDraftSaving } from "./DraftSchedule.tsx";
import DraftStatus from "./DraftStatus.tsx";
import Field from "./Field.tsx";
import RevisionHistory from "./RevisionHistory.tsx";
import { useFieldErrors } from "./form-errors.ts";
import { uploadPhoto } from "./upload-photo.ts";
import { input, primary, secondary } from "./ui.ts";

interface Props {
  chapter: AdminChapter;
  subsection?: AdminSubsection;
  /** A new subsection's order: the count of the chapter's subsections. */
  defaultOrder?: number;
  onDone: () => void;
}

export default function SubsectionForm({ chapter, subsection: saved, defaultOrder = 0, onDone }: Props) {
  const form = useRef<HTMLFormElement>(null);
  // A pending draft (issue 14) is what the form edits; the published text stays live meanwhile.
  const subsection = saved && { ...saved, ...saved.draft };
  const draft = useDraftSaving(saved?.publishAt);
  const previewing = usePreviewing();
  const [title, setTitle] = useState(subsection?.title ?? "");
  const [slug, setSlug] = useState(subsection?.slug ?? "");
  const [content, setContent] = useState(subsection?.content ?? "");
  const [photo, setPhoto] = useState(subsection?.photo ?? "");
  const [photoAlt, setPhotoAlt] = useState(subsection?.photoAlt ?? "");
  const [order, setOrder] = useState(String(subsection?.order ?? defaultOrder));
  const [brokenPhoto, setBrokenPhoto] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [pending, setPending] = useState(false);
  const values = {
    chapterId: chapter.id,
    title,
    content,
    photo: photo.trim(),
    photoAlt: photoAlt.trim() || null,
    order: toWholeNumber(order),
    slug: slug.trim(),
  };
  const { errors, validate } = useFieldErrors(subsectionInput, values, form);
  // The server's word that the slug (typed, or made from the title) is taken in this chapter (409),
  // shown beside the Slug field until the slug or the title changes.
  const [taken, setTaken] = useState<{ slug: string; title: string; message: string } | null>(null);
  const slugError = errors.slug ?? (taken?.slug === values.slug && taken.title === title.trim() ? taken.message : undefined);
  const slugInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (taken) slugInput.current?.focus();
  }, [taken]);

  async function onFile(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    const url = await uploadPhoto(file);
    setUploading(false);
    if (url) setPhoto(url);
  }

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    previewing.setPreviewing(false);
    const data = validate();
    if (!data) return;
    const payload = {
      chapterId: data.chapterId,
      title: data.title,
      content: data.content,
      photo: data.photo || null,
      photoAlt: data.photoAlt ?? null,
      order: data.order ?? 0,
      ...(data.slug ? { slug: data.slug } : {}),
    };
    const options = draft.options();
    if (!options) return;
    setPending(true);
    const result = saved ? await updateSubsection(saved.id, payload, options) : await createSubsection(payload, options);
    setPending(false);
    if (result.ok) return onDone();
    if (result.slugProblem) {
      setTaken({ slug: values.slug, title: title.trim(), message: result.slugProblem });
    }
  }

  const showPreview = photo.trim() !== "" && brokenPhoto !== photo;
  return (
    <>
    {saved && <DraftStatus kind="subsection" item={saved} chapterId={chapter.id} onDone={onDone} />}
    <form ref={form} onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
      <p className="text-sm text-[var(--color-muted)]">
        Chapter: <span className="font-medium text-[var(--color-ink)]">{chapter.title}</span>
      </p>
      {/* Issue 44: 8: what happens to a new subsection of a chapter that is itself a draft. */}
      {!saved && chapter.status === "draft" && (
        <p role="note" className="rounded-md border border-[var(--color-line)] p-3 text-sm" data-testid="waits-in-draft">
          This chapter is a draft: the subsection waits in it, and readers see it once the chapter is published.
        </p>
      )}
      <Field label="Title" error={errors.title}>
        <input className={input} value={title} onChange={(e) => setTitle(e.target.value)} data-autofocus />
      </Field>
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <Field label="Slug (optional)" hint={subsection ? "Leave empty to keep the current slug." : "Leave empty to make it from the title."} error={slugError}>
          <input ref={slugInput} className={input} value={slug} onChange={(e) => setSlug(e.target.value)} />
        </Field>
        <Field label="Order" error={errors.order}>
          <input className={input} type="number" min={0} inputMode="numeric" value={order} onChange={(e) => setOrder(e.target.value)} />
        </Field>
      </div>
      <ContentField
        value={content}
        onChange={setContent}
        error={errors.content}
        rows={8}
        height="min-h-40"
        preview={{
          kind: "subsection",
          title: title.trim(),
          slug: values.slug,
          content,
          photo: brokenPhoto === photo ? "" : values.photo,
          photoAlt: photoAlt.trim(),
          number: subsectionNumber(chapter.id, saved?.id, toWholeNumber(order)),
        }}
        transformHref={transformHref()}
        toggle={previewing}
      />
      <fieldset className="space-y-3 rounded-md border border-[var(--color-line)] p-4">
        <legend className="px-1 text-sm font-medium">Photo (optional)</legend>
        <Field label="Upload an image" hint="JPEG, PNG, WebP, GIF or AVIF, at most 4 MB.">
          <input
            className={`${input} file:mr-3 file:rounded file:border-0 file:bg-[var(--color-line)] file:px-3 file:py-1 file:text-[var(--color-ink)]`}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            disabled={uploading}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </Field>
        {uploading && (
          <p role="status" className="text-sm text-[var(--color-muted)]">
            Uploading...
          </p>
        )}
        <Field label="Or photo URL" error={errors.photo}>
          <input className={input} type="url" inputMode="url" placeholder="https://" value={photo} onChange={(e) => setPhoto(e.target.value)} />
        </Field>
        <Field label="Photo description (alt text)" error={errors.photoAlt}>
          <input className={input} value={photoAlt} onChange={(e) => setPhotoAlt(e.target.value)} />
        </Field>
        {showPreview && (
          <img
            src={photo}
            alt={photoAlt || "Photo preview"}
            data-testid="photo-preview"
            className="max-h-48 rounded-md border border-[var(--color-line)] object-contain"
            onError={() => setBrokenPhoto(photo)}
          />
        )}
        {photo.trim() !== "" && (
          <button type="button" className={secondary} onClick={() => setPhoto("")}>
            Remove photo
          </button>
        )}
      </fieldset>
      <DraftSchedule draft={draft} />
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <button type="button" className={secondary} onClick={onDone} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className={secondary} disabled={pending || uploading} onClick={() => draft.choose(true)}>
          Save as draft
        </button>
        <button type="submit" className={primary} disabled={pending || uploading} onClick={() => draft.choose(false)}>
          {pending ? "Saving..." : subsection ? "Save Changes" : "Add Subsection"}
        </button>
      </div>
    </form>
    {saved && <RevisionHistory kind="subsection" itemId={saved.id} current={saved} chapterId={chapter.id} onRestored={onDone} />}
    </>
  );
}
