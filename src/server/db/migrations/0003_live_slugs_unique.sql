ALTER TABLE "chapters" DROP CONSTRAINT "chapters_slug_unique";--> statement-breakpoint
DROP INDEX "subsections_chapter_slug_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "chapters_live_slug_idx" ON "chapters" USING btree ("slug") WHERE "chapters"."deleted_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "subsections_chapter_live_slug_idx" ON "subsections" USING btree ("chapter_id","slug") WHERE "subsections"."deleted_at" IS NULL;