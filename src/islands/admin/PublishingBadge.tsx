/** A draft's mark in the admin lists (issue 14): a draft, or a published item with a draft waiting; scheduled or not. */
import { badge, formatTime } from "./ui.ts";

export default function PublishingBadge({ item }: { item: { status?: string; draft?: unknown; publishAt?: string | null } }) {
  const text = item.status === "draft" ? "Draft" : item.draft ? "Draft waiting" : null;
  if (!text) return null;
  return (
    <span className={`${badge} border-amber-600 text-amber-800 dark:text-amber-300`} title={item.publishAt ? `Publishes at ${formatTime(item.publishAt)}` : undefined}>
      {text}
      {item.publishAt ? ` · ${formatTime(item.publishAt)}` : ""}
    </span>
  );
}
