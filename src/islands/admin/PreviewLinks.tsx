/**
 * Links that open a chapter as a reader of each tier would see it (issue 14: src/server/pages/
 * preview-page.ts), in a new tab: the draft of a draft chapter; both the pending draft and the
 * published text of a published chapter with a draft waiting; else the published text.
 */
import { LEVELS } from "../../lib/levels.ts";
import type { AdminChapter } from "../../stores/admin-api.ts";
import { secondary } from "./ui.ts";

function Row({ chapter, version, label }: { chapter: AdminChapter; version: "live" | "draft"; label: string }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">{label}</span>
      {LEVELS.map((tier) => (
        <a
          key={tier}
          className={secondary}
          href={`/admin/preview/${chapter.id}?tier=${tier}&version=${version}`}
          target="_blank"
          rel="noopener"
          aria-label={`Preview ${version === "draft" ? "the draft of " : ""}${chapter.title} as ${tier} (opens in a new tab)`}
        >
          {tier}
        </a>
      ))}
    </p>
  );
}

export default function PreviewLinks({ chapter }: { chapter: AdminChapter }) {
  if (chapter.status === "draft") return <Row chapter={chapter} version="draft" label="Preview the draft as:" />;
  return (
    <>
      {chapter.draft && <Row chapter={chapter} version="draft" label="Preview the draft as:" />}
      <Row chapter={chapter} version="live" label={chapter.draft ? "Preview the published text as:" : "Preview as:"} />
    </>
  );
}
