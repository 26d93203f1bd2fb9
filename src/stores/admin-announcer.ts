/** What the admin panel's polite live region says next (reorders by drag or keyboard). */
import { atom } from "nanostores";

export const $announcement = atom("");

/** Says `text` to screen readers, even when it is the same text as last time. */
export function announce(text: string): void {
  $announcement.set("");
  queueMicrotask(() => $announcement.set(text));
}

export function moveAnnouncement(title: string, position: number, total: number): string {
  return `Moved ${title} to position ${position} of ${total}`;
}
