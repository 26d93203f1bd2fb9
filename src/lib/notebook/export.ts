/**
 * A notebook taken away (issue 32): one Markdown file (chapters as headings, each note under its
 * subsection's number and title) or JSON, made in the member's browser from the decrypted notes.
 * Notes whose passage is no longer open to the member come last, under their last known title.
 */
import { chapterNumber, twoDigits } from "../chapter-number.ts";
import type { NotePlain } from "./crypto.ts";

/** Where a note's passage is now, as the server places it (null: no longer open to the member). */
export interface NotePlace {
  chapterSlug: string;
  chapterTitle: string;
  level: string;
  chapterNumber: number;
  sectionSlug: string;
  sectionTitle: string;
  sectionNumber: number;
}

/** A decrypted note, in book order. */
export interface OpenedNote {
  subsectionId: number;
  updatedAt: string;
  note: NotePlain;
  place: NotePlace | null;
}

const day = (iso: string) => iso.slice(0, 10);

/** The words shown for a note from a passage the member may no longer read. */
export const NO_LONGER_OPEN = "from a passage no longer open to you";

/** A message of the member's direct line (issue 43), opened, as the download writes it. */
export interface TakenMessage {
  sender: "member" | "operator";
  createdAt: string;
  /** Null: it could not be opened. */
  text: string | null;
  task?: boolean;
}

/** The direct line as a Markdown section ("Messages"), oldest first. */
function messagesMarkdown(messages: readonly TakenMessage[]): string[] {
  if (messages.length === 0) return [];
  const lines = ["## Messages", ""];
  for (const message of messages) {
    lines.push(`### ${message.sender === "member" ? "You" : "The operator"}${message.task ? " (a task)" : ""}, ${message.createdAt.slice(0, 16).replace("T", " ")} UTC`, "");
    lines.push(message.text === null ? "_This message could not be opened._" : message.text.trim(), "");
  }
  return lines;
}

/** The notebook as Markdown, written `at`; with the direct line's messages when given. */
export function notebookMarkdown(notes: readonly OpenedNote[], at: Date, messages: readonly TakenMessage[] = []): string {
  const lines = ["# My notebook", "", `Downloaded on ${day(at.toISOString())}: ${notes.length} ${notes.length === 1 ? "note" : "notes"}.`, ""];
  let chapter: string | null = null;
  const placed = notes.filter((n) => n.place);
  const unplaced = notes.filter((n) => !n.place);
  for (const { place, note, updatedAt } of placed) {
    const heading = `${place!.level} · ${chapterNumber(place!.chapterNumber)} ${place!.chapterTitle}`;
    if (heading !== chapter) {
      lines.push(`## ${heading}`, "");
      chapter = heading;
    }
    lines.push(`### ${twoDigits(place!.sectionNumber)} ${place!.sectionTitle}`, "", note.text.trim(), "", `_Last edited ${day(updatedAt)}_`, "");
  }
  if (unplaced.length > 0) {
    lines.push(`## Notes ${NO_LONGER_OPEN}`, "");
    for (const { note, updatedAt } of unplaced) {
      lines.push(`### ${note.title} (${note.chapterTitle})`, "", note.text.trim(), "", `_Last edited ${day(updatedAt)}_`, "");
    }
  }
  lines.push(...messagesMarkdown(messages));
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The notebook as JSON: each note's text, passage and times. */
export function notebookJson(notes: readonly OpenedNote[], at: Date): string {
  return `${JSON.stringify(
    {
      downloadedAt: at.toISOString(),
      notes: notes.map(({ note, place, updatedAt }) => ({
        text: note.text,
        passage: place
          ? { level: place.level, chapter: place.chapterTitle, chapterNumber: place.chapterNumber, section: place.sectionTitle, sectionNumber: place.sectionNumber, address: `/${place.chapterSlug}#${place.sectionSlug}` }
          : { level: note.level, chapter: note.chapterTitle, section: note.title, open: false },
        updatedAt,
      })),
    },
    null,
    2,
  )}\n`;
}

/** Saves `text` as a file named `name` (a download in the browser). */
export function downloadFile(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
